/**
 * The dense models behind `upsert-data` / `query-data`. The hashing models are synchronous and
 * deterministic. `USE_LITE` builds one vector from two parts, so a single index holds both scripts:
 * - values 0..511: the sentence model's embedding of the text's Latin-script part;
 * - values 512..dimension-1: the weighted hashing embedding of its CJK part.
 * Each part is unit length and scaled by the square root of its script's share of the text, so the
 * whole vector is unit length. An English text has an empty CJK part and a Chinese text an empty
 * sentence part: an English query scores 0 cosine (unrelated) against a Chinese memory, Chinese
 * texts are compared by their characters (never all alike, as the sentence model would make them),
 * and a mixed text matches each side in proportion to how much of it is in that script.
 */
import type { DenseModel } from "./config.ts";
import { cachedEmbeddings } from "./embedding-cache.ts";
import { embedText } from "./embedder.ts";
import { splitScripts } from "./script-split.ts";
import { embedSentences, SENTENCE_DIMENSION } from "./sentence-model.ts";

/** Whether the model embeds without awaiting anything (the hashing models). */
export const isSyncModel = (model: DenseModel): boolean => model !== "USE_LITE";

/** Embeds with a hashing model (synchronous). */
export function embedHashing(model: DenseModel, text: string, dimension: number): Float64Array {
  return embedText(text, dimension, { stopFeatures: model === "HASHING_WEIGHTED" });
}

/**
 * Embeds `texts` with `model` into vectors of `dimension` values: each distinct text once, and not
 * at all while the model's cache holds it (embedding-cache.ts); a sentence-model batch is one call.
 */
export function embedDense(model: DenseModel, texts: readonly string[], dimension: number): Promise<Float64Array[]> {
  return cachedEmbeddings(`${model}/${dimension}`, texts, (missing) => computeDense(model, missing, dimension));
}

async function computeDense(model: DenseModel, texts: readonly string[], dimension: number): Promise<Float64Array[]> {
  if (model !== "USE_LITE") return texts.map((t) => embedHashing(model, t, dimension));
  const parts = texts.map(splitScripts);
  const sentences = await embedSentences(parts.map((p) => p.latin));
  return parts.map((p, i) => {
    const out = new Float64Array(dimension);
    if (p.latinShare > 0) {
      const scale = Math.sqrt(p.latinShare);
      const s = sentences[i] ?? new Float64Array(0);
      for (let j = 0; j < SENTENCE_DIMENSION; j += 1) out[j] = (s[j] ?? 0) * scale;
    }
    if (p.latinShare < 1 && p.cjk !== "") {
      const scale = Math.sqrt(1 - p.latinShare);
      const h = embedText(p.cjk, dimension - SENTENCE_DIMENSION, { stopFeatures: true });
      for (let j = 0; j < h.length; j += 1) out[SENTENCE_DIMENSION + j] = (h[j] ?? 0) * scale;
    }
    return out;
  });
}
