/** Similarity functions of a dense Upstash Vector index. */
export type SimilarityFunction = "COSINE" | "EUCLIDEAN" | "DOT_PRODUCT";

/** Settings of the emulated index. Upstash sets these in its console; the emulator takes them here. */
export interface VectorIndexConfig {
  /** Vector length every upsert and query must have. Default 384; at most {@link MAX_DIMENSION}. */
  dimension: number;
  /** How scores are computed. Default `COSINE`. */
  similarity: SimilarityFunction;
  /** Whether `upsert-data` / `query-data` may embed text with the offline embedder. Default `true`. */
  embedding: boolean;
}

export const DEFAULT_VECTOR_CONFIG: Readonly<VectorIndexConfig> = {
  dimension: 384,
  similarity: "COSINE",
  embedding: true,
};

/** Largest dimension of a fixed / pay-as-you-go Upstash index. */
export const MAX_DIMENSION = 3072;

/** Reported as `denseIndex.embeddingModel` when embedding is on (`""` when off, as Upstash does). */
export const EMBEDDING_MODEL_NAME = "LOCAL_HASHING_EMBEDDER";

const SIMILARITIES: readonly SimilarityFunction[] = ["COSINE", "EUCLIDEAN", "DOT_PRODUCT"];

function parseSimilarity(value: string, source: string): SimilarityFunction {
  const upper = value.trim().toUpperCase();
  const found = SIMILARITIES.find((s) => s === upper);
  if (!found) throw new Error(`${source} must be one of ${SIMILARITIES.join(", ")}, got "${value}"`);
  return found;
}

function checkDimension(value: number, source: string): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_DIMENSION) {
    throw new Error(`${source} must be an integer between 1 and ${MAX_DIMENSION}, got ${String(value)}`);
  }
  return value;
}

/** Fills in defaults and validates; throws an `Error` naming the bad setting. */
export function resolveVectorConfig(partial: Partial<VectorIndexConfig> = {}): VectorIndexConfig {
  const dimension = checkDimension(partial.dimension ?? DEFAULT_VECTOR_CONFIG.dimension, "vector dimension");
  const similarity = parseSimilarity(partial.similarity ?? DEFAULT_VECTOR_CONFIG.similarity, "vector similarity");
  const embedding = partial.embedding ?? DEFAULT_VECTOR_CONFIG.embedding;
  if (typeof embedding !== "boolean") throw new Error("vector embedding must be a boolean");
  return { dimension, similarity, embedding };
}

/**
 * Reads index overrides from the environment (unset or empty variables are left out):
 * - `UPSTASH_LOCAL_VECTOR_DIMENSION`: integer 1..3072
 * - `UPSTASH_LOCAL_VECTOR_SIMILARITY`: `COSINE` | `EUCLIDEAN` | `DOT_PRODUCT` (any case)
 * - `UPSTASH_LOCAL_VECTOR_EMBEDDING`: `on` | `off` (also `true`/`false`, `1`/`0`)
 *
 * Throws an `Error` naming the variable when a value is invalid.
 */
export function vectorConfigFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Partial<VectorIndexConfig> {
  const out: Partial<VectorIndexConfig> = {};
  const dim = env.UPSTASH_LOCAL_VECTOR_DIMENSION?.trim();
  if (dim) {
    const n = /^\d+$/.test(dim) ? Number(dim) : Number.NaN;
    out.dimension = checkDimension(n, "UPSTASH_LOCAL_VECTOR_DIMENSION");
  }
  const sim = env.UPSTASH_LOCAL_VECTOR_SIMILARITY?.trim();
  if (sim) out.similarity = parseSimilarity(sim, "UPSTASH_LOCAL_VECTOR_SIMILARITY");
  const emb = env.UPSTASH_LOCAL_VECTOR_EMBEDDING?.trim().toLowerCase();
  if (emb) {
    if (emb === "on" || emb === "true" || emb === "1") out.embedding = true;
    else if (emb === "off" || emb === "false" || emb === "0") out.embedding = false;
    else throw new Error(`UPSTASH_LOCAL_VECTOR_EMBEDDING must be "on" or "off", got "${emb}"`);
  }
  return out;
}
