/** @module Reads the Vector emulator's index settings from UPSTASH_LOCAL_VECTOR_* environment variables. */
import { checkDimension, parseDenseModel, parseIndexKind, parseSimilarity, type Bm25Options, type VectorIndexSettings } from "./config.ts";
import { parseCjkTerms, parseWordTerms } from "./terms.ts";

/**
 * Reads index overrides from the environment (unset or empty variables are left out):
 * - `UPSTASH_LOCAL_VECTOR_INDEX`: `dense` | `sparse` | `hybrid` (any case)
 * - `UPSTASH_LOCAL_VECTOR_DIMENSION`: integer 1..3072 (dense part; ignored by a sparse index)
 * - `UPSTASH_LOCAL_VECTOR_SIMILARITY`: `COSINE` | `EUCLIDEAN` | `DOT_PRODUCT` (any case)
 * - `UPSTASH_LOCAL_VECTOR_EMBEDDING`: `on` | `off` (also `true`/`false`, `1`/`0`)
 * - `UPSTASH_LOCAL_VECTOR_DENSE_MODEL`: `HASHING` | `HASHING_WEIGHTED` | `USE_LITE` (sentence model for
 *   English, hashing for CJK)
 * - `UPSTASH_LOCAL_VECTOR_CJK_TERMS`: `bigrams` | `unigrams+bigrams` | `segmenter` (BM25 terms of Chinese text)
 * - `UPSTASH_LOCAL_VECTOR_WORD_TERMS`: `plain` | `light-stem` | `porter` (BM25 terms of other words)
 *
 * Throws an `Error` naming the variable when a value is invalid.
 */
export function vectorConfigFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): VectorIndexSettings {
  const out: VectorIndexSettings = {};
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const kind = read("UPSTASH_LOCAL_VECTOR_INDEX");
  if (kind) out.kind = parseIndexKind(kind, "UPSTASH_LOCAL_VECTOR_INDEX");
  const dim = read("UPSTASH_LOCAL_VECTOR_DIMENSION");
  if (dim) out.dimension = checkDimension(/^\d+$/.test(dim) ? Number(dim) : Number.NaN, "UPSTASH_LOCAL_VECTOR_DIMENSION");
  const sim = read("UPSTASH_LOCAL_VECTOR_SIMILARITY");
  if (sim) out.similarity = parseSimilarity(sim, "UPSTASH_LOCAL_VECTOR_SIMILARITY");
  const emb = read("UPSTASH_LOCAL_VECTOR_EMBEDDING")?.toLowerCase();
  if (emb) {
    if (emb === "on" || emb === "true" || emb === "1") out.embedding = true;
    else if (emb === "off" || emb === "false" || emb === "0") out.embedding = false;
    else throw new Error(`UPSTASH_LOCAL_VECTOR_EMBEDDING must be "on" or "off", got "${emb}"`);
  }
  const model = read("UPSTASH_LOCAL_VECTOR_DENSE_MODEL");
  if (model) out.denseModel = parseDenseModel(model, "UPSTASH_LOCAL_VECTOR_DENSE_MODEL");
  const bm25: Partial<Bm25Options> = {};
  const cjk = read("UPSTASH_LOCAL_VECTOR_CJK_TERMS");
  if (cjk) bm25.cjk = parseCjkTerms(cjk, "UPSTASH_LOCAL_VECTOR_CJK_TERMS");
  const words = read("UPSTASH_LOCAL_VECTOR_WORD_TERMS");
  if (words) bm25.words = parseWordTerms(words, "UPSTASH_LOCAL_VECTOR_WORD_TERMS");
  if (Object.keys(bm25).length > 0) out.bm25 = bm25;
  return out;
}
