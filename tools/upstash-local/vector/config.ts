/** @module Vector index configuration: index kind, similarity, dense model, BM25 options and their parsing. */
import { SENTENCE_DIMENSION } from "./sentence-model.ts";
import { DEFAULT_TERM_OPTIONS, resolveTermOptions, type TermOptions } from "./terms.ts";

/** Smallest dimension of a `USE_LITE` index: the 512 sentence values plus room for the CJK part. */
export const USE_LITE_MIN_DIMENSION = SENTENCE_DIMENSION + 128;

/** Similarity functions of a dense Upstash Vector index. */
export type SimilarityFunction = "COSINE" | "EUCLIDEAN" | "DOT_PRODUCT";

/** Upstash's index types: dense vectors, sparse vectors, or both in one record (hybrid). */
export type VectorIndexKind = "dense" | "sparse" | "hybrid";

/**
 * Offline dense models. `HASHING` is the original feature-hashing embedder; `HASHING_WEIGHTED` is
 * the same with very frequent features (stop words, function characters) down-weighted. `USE_LITE`
 * embeds Latin-script text with a real English sentence model (Universal Sentence Encoder lite, from
 * npm) and CJK text with `HASHING_WEIGHTED`, in separate parts of one vector (see dense-model.ts).
 * The hashing models are deterministic and instant; the sentence model relates paraphrases.
 */
export type DenseModel = "HASHING" | "HASHING_WEIGHTED" | "USE_LITE";

/** BM25 settings (Upstash's fixed constants by default) plus how text becomes terms. */
export interface Bm25Options extends TermOptions {
  /** Term frequency saturation. @default 1.2 */
  k1: number;
  /** Length normalization. @default 0.75 */
  b: number;
  /** Assumed average document length in terms (Upstash fixes it so embeddings stay stateless). @default 32 */
  avgDocLength: number;
}

/** Settings of the emulated index. Upstash sets these in its console; the emulator takes them here. */
export interface VectorIndexConfig {
  /** Index type. @default "hybrid" (the dev stack's index) */
  kind: VectorIndexKind;
  /** Dense vector length; 0 for a sparse index. @default 384 (dense), 1024 (hybrid, like BGE-M3); at most 3072 */
  dimension: number;
  /** How dense scores are computed. @default "COSINE" */
  similarity: SimilarityFunction;
  /** Whether `upsert-data` / `query-data` embed text (dense model and/or BM25, by kind). @default true */
  embedding: boolean;
  /**
   * Offline dense model behind the data endpoints. @default "HASHING" (dense), "HASHING_WEIGHTED"
   * (hybrid); the dev stack and the CLI use {@link DEV_DENSE_MODEL} for a hybrid index.
   */
  denseModel: DenseModel;
  /** The BM25 sparse model behind the data endpoints of sparse and hybrid indexes. */
  bm25: Bm25Options;
}

/** What callers may set: everything optional, BM25 settings one by one. */
export type VectorIndexSettings = Partial<Omit<VectorIndexConfig, "bm25">> & { bm25?: Partial<Bm25Options> | undefined };

export const DEFAULT_INDEX_KIND: VectorIndexKind = "hybrid";

/** Per-kind defaults: a dense index keeps the original settings; hybrid mirrors Upstash's BGE-M3 + BM25. */
export const KIND_DEFAULTS: Readonly<Record<VectorIndexKind, { dimension: number; denseModel: DenseModel }>> = {
  dense: { dimension: 384, denseModel: "HASHING" },
  hybrid: { dimension: 1024, denseModel: "HASHING_WEIGHTED" },
  sparse: { dimension: 0, denseModel: "HASHING" },
};

/**
 * Dense model of the dev stack's (and the CLI's) hybrid index when none is set: the sentence model,
 * so recall on `npm run dev` relates paraphrases. Library callers (tests) keep the hashing default.
 */
export const DEV_DENSE_MODEL: DenseModel = "USE_LITE";

/** Dimension of a `USE_LITE` index when none is set: 512 sentence values + 512 hashed CJK values. */
export const USE_LITE_DIMENSION = 1024;

export const DEFAULT_BM25: Readonly<Bm25Options> = { k1: 1.2, b: 0.75, avgDocLength: 32, ...DEFAULT_TERM_OPTIONS };

/** The defaults of a dense index (the emulator's original, and only, index type). */
export const DEFAULT_VECTOR_CONFIG: Readonly<Omit<VectorIndexConfig, "kind" | "denseModel" | "bm25">> = {
  dimension: 384,
  similarity: "COSINE",
  embedding: true,
};

/** Largest dimension of a fixed / pay-as-you-go Upstash index. */
export const MAX_DIMENSION = 3072;

/** Reported as `denseIndex.embeddingModel` when embedding is on (`""` when off, as Upstash does). */
export const EMBEDDING_MODEL_NAME = "LOCAL_HASHING_EMBEDDER";
export const DENSE_MODEL_NAMES: Readonly<Record<DenseModel, string>> = {
  HASHING: EMBEDDING_MODEL_NAME,
  HASHING_WEIGHTED: "LOCAL_HASHING_EMBEDDER_WEIGHTED",
  USE_LITE: "LOCAL_USE_LITE_EN+HASHING_CJK",
};
/** Reported as `sparseIndex.embeddingModel`: the name Upstash gives its BM25 model. */
export const SPARSE_MODEL_NAME = "BM25";

export const INDEX_KINDS: readonly VectorIndexKind[] = ["dense", "sparse", "hybrid"];
const SIMILARITIES: readonly SimilarityFunction[] = ["COSINE", "EUCLIDEAN", "DOT_PRODUCT"];
export const DENSE_MODELS: readonly DenseModel[] = ["HASHING", "HASHING_WEIGHTED", "USE_LITE"];

function oneOf<T extends string>(allowed: readonly T[], value: string, source: string, upper: boolean): T {
  const wanted = upper ? value.trim().toUpperCase() : value.trim().toLowerCase();
  const found = allowed.find((s) => s === wanted);
  if (!found) throw new Error(`${source} must be one of ${allowed.join(", ")}, got "${value}"`);
  return found;
}

export const parseSimilarity = (v: string, source: string): SimilarityFunction => oneOf(SIMILARITIES, v, source, true);
export const parseIndexKind = (v: string, source: string): VectorIndexKind => oneOf(INDEX_KINDS, v, source, false);
export const parseDenseModel = (v: string, source: string): DenseModel => oneOf(DENSE_MODELS, v, source, true);

export function checkDimension(value: number, source: string): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_DIMENSION) {
    throw new Error(`${source} must be an integer between 1 and ${MAX_DIMENSION}, got ${String(value)}`);
  }
  return value;
}

function positive(value: number, source: string): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`${source} must be a non-negative number, got ${String(value)}`);
  return value;
}

function resolveBm25(partial: Partial<Bm25Options> = {}): Bm25Options {
  const b = positive(partial.b ?? DEFAULT_BM25.b, "bm25.b");
  if (b > 1) throw new Error(`bm25.b must be between 0 and 1, got ${b}`);
  const avgDocLength = positive(partial.avgDocLength ?? DEFAULT_BM25.avgDocLength, "bm25.avgDocLength");
  if (avgDocLength === 0) throw new Error("bm25.avgDocLength must be greater than 0");
  return { k1: positive(partial.k1 ?? DEFAULT_BM25.k1, "bm25.k1"), b, avgDocLength, ...resolveTermOptions(partial) };
}

/** Fills in defaults (which depend on the kind) and validates; throws an `Error` naming the bad setting. */
export function resolveVectorConfig(partial: VectorIndexSettings = {}): VectorIndexConfig {
  const kind = parseIndexKind(partial.kind ?? DEFAULT_INDEX_KIND, "vector index kind");
  const defaults = KIND_DEFAULTS[kind];
  const denseModel = parseDenseModel(partial.denseModel ?? defaults.denseModel, "vector dense model");
  const sentence = denseModel === "USE_LITE" && kind !== "sparse";
  // A sparse index has no dense part: a dimension set for the other kinds (e.g. in the env) does not apply.
  const dimension =
    kind === "sparse" ? 0 : checkDimension(partial.dimension ?? (sentence ? USE_LITE_DIMENSION : defaults.dimension), "vector dimension");
  if (sentence && dimension < USE_LITE_MIN_DIMENSION) {
    throw new Error(
      `vector dimension must be at least ${USE_LITE_MIN_DIMENSION} with the USE_LITE dense model (512 sentence values + the CJK part), got ${dimension}`,
    );
  }
  const similarity = parseSimilarity(partial.similarity ?? DEFAULT_VECTOR_CONFIG.similarity, "vector similarity");
  const embedding = partial.embedding ?? DEFAULT_VECTOR_CONFIG.embedding;
  if (typeof embedding !== "boolean") throw new Error("vector embedding must be a boolean");
  return { kind, dimension, similarity, embedding, denseModel, bm25: resolveBm25(partial.bm25) };
}

/** Which parts a record of this index kind has. */
export const hasDense = (config: VectorIndexConfig): boolean => config.kind !== "sparse";
export const hasSparse = (config: VectorIndexConfig): boolean => config.kind !== "dense";
