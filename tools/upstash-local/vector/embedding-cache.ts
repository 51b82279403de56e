/**
 * One embedding per distinct text: recent dense vectors kept by text, one bounded LRU per model
 * (and dimension), in front of every dense model (dense-model.ts). A recall's batch asks the same
 * wording more than once (its DENSE and SPARSE parts, a hybrid query, repeated wordings), a chat
 * app asks the same question again, an upsert is re-sent: each text reaches the model once while
 * it is cached. A text being embedded is cached as its pending vector, so queries of one batch (or
 * concurrent requests) asking for it share that one computation; a failed one is forgotten.
 */
import { LruMap } from "./lru.ts";

/** Vectors kept per model (least recently used dropped first): at 1024 dimensions 8 KB each, so at most 16 MB. */
export const EMBEDDING_CACHE_SIZE = 2048;
/** Longer texts are embedded every time (they are rarely repeated, and a key that long costs memory). */
export const EMBEDDING_CACHE_MAX_CHARS = 4096;

type Entry = Float64Array | Promise<Float64Array>;

/** Embeddings computed (cache misses) and served from the cache since the process started (or the last clear). */
export interface EmbeddingStats {
  computed: number;
  cached: number;
}

const caches = new Map<string, LruMap<string, Entry>>();
let stats: EmbeddingStats = { computed: 0, cached: 0 };

/**
 * The vectors of `texts` (in order, each a copy the caller may keep) from the cache of `model`;
 * `compute` embeds the distinct texts the cache does not hold, in one call.
 */
export async function cachedEmbeddings(
  model: string,
  texts: readonly string[],
  compute: (missing: string[]) => Promise<Float64Array[]> | Float64Array[],
): Promise<Float64Array[]> {
  let cache = caches.get(model);
  if (!cache) {
    cache = new LruMap(EMBEDDING_CACHE_SIZE);
    caches.set(model, cache);
  }
  const entries = new Map<string, Entry>();
  const missing: string[] = [];
  for (const text of texts) {
    if (entries.has(text)) {
      stats.cached += 1;
      continue;
    }
    const hit = text.length <= EMBEDDING_CACHE_MAX_CHARS ? cache.get(text) : undefined;
    if (hit !== undefined) {
      entries.set(text, hit);
      stats.cached += 1;
    } else {
      entries.set(text, new Float64Array(0)); // placeholder: set once computed
      missing.push(text);
    }
  }
  if (missing.length > 0) {
    stats.computed += missing.length;
    const pending = Promise.resolve().then(() => compute(missing));
    missing.forEach((text, i) => {
      const one = pending.then((vectors) => {
        const v = vectors[i];
        if (v === undefined) throw new Error(`the dense model returned ${vectors.length} vectors for ${missing.length} texts`);
        return v;
      });
      entries.set(text, one);
      if (text.length > EMBEDDING_CACHE_MAX_CHARS) return;
      cache.set(text, one);
      one.then(
        (v) => {
          if (cache.peek(text) === one) cache.set(text, v); // the vector itself, no longer the promise
        },
        () => {
          if (cache.peek(text) === one) cache.delete(text); // a failed embedding is tried again next time
        },
      );
    });
  }
  const distinct = [...entries.keys()];
  const vectors = await Promise.all(distinct.map((text) => entries.get(text)));
  const resolved = new Map(distinct.map((text, i) => [text, vectors[i] ?? new Float64Array(0)]));
  return texts.map((text) => (resolved.get(text) ?? new Float64Array(0)).slice());
}

export const embeddingStats = (): EmbeddingStats => ({ ...stats });

/** Forgets every cached vector and resets the counts (tests that count embeddings start from here). */
export function clearEmbeddingCache(): void {
  caches.clear();
  stats = { computed: 0, cached: 0 };
}
