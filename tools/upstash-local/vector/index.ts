/** @module Upstash Vector REST emulator service: store, persistence and HTTP handler, plus the vector module's exports. */
import { join } from "node:path";
import type { RestHandler } from "../listener.ts";
import { resolveVectorConfig, type VectorIndexConfig, type VectorIndexSettings } from "./config.ts";
import { embedRecords, type VectorContext } from "./context.ts";
import { preloadSentenceModel } from "./sentence-model.ts";
import { createHttpHandler } from "./http.ts";
import { Persister } from "./persister.ts";
import { ResumableQueries } from "./resumable.ts";
import { loadInto } from "./snapshot-load.ts";
import { VectorStore } from "./store.ts";

export {
  DEFAULT_BM25,
  DEFAULT_INDEX_KIND,
  DEFAULT_VECTOR_CONFIG,
  DENSE_MODEL_NAMES,
  EMBEDDING_MODEL_NAME,
  INDEX_KINDS,
  KIND_DEFAULTS,
  DEV_DENSE_MODEL,
  DENSE_MODELS,
  MAX_DIMENSION,
  resolveVectorConfig,
  SPARSE_MODEL_NAME,
  USE_LITE_DIMENSION,
  type Bm25Options,
  type DenseModel,
  type SimilarityFunction,
  type VectorIndexConfig,
  type VectorIndexKind,
  type VectorIndexSettings,
} from "./config.ts";
export { vectorConfigFromEnv } from "./config-env.ts";
export { bm25Document, bm25Query } from "./bm25.ts";
export { embedText, type EmbedOptions } from "./embedder.ts";
export { embedDense } from "./dense-model.ts";
export { USE_LITE_MIN_DIMENSION } from "./config.ts";
export { clearEmbeddingCache, EMBEDDING_CACHE_SIZE, embeddingStats, type EmbeddingStats } from "./embedding-cache.ts";
export { splitScripts, type ScriptParts } from "./script-split.ts";
export {
  embedSentences,
  preloadSentenceModel,
  SENTENCE_DIMENSION,
  sentenceModelState,
  sentenceModelStats,
  type SentenceModelState,
} from "./sentence-model.ts";
export { float32Score } from "./float32.ts";
export { fuse, RRF_K, type FusionAlgorithm } from "./fusion.ts";
export { LIMITS } from "./limits.ts";
export { idfWeight } from "./sparse-postings.ts";
export type { SparseVector } from "./sparse-vector.ts";
export { DEFAULT_TERM_OPTIONS, termId, textTerms, type CjkTerms, type TermOptions, type WordTerms } from "./terms.ts";

/** Options of {@link createVectorService}. */
export interface VectorServiceOptions {
  /** Bearer token every request must carry (`Authorization: Bearer <token>`). */
  token: string;
  /** Folder for `vector.json`. Default: none, data is kept in memory only. */
  dataDir?: string | undefined;
  /** Index settings. Default: a hybrid index, 1024-dim COSINE dense part, BM25 sparse part, embedding on. */
  index?: VectorIndexSettings | undefined;
  /**
   * Start loading the sentence model (dense model `USE_LITE`) when the service is created, in the
   * background; false loads it on the first request that embeds text. @default true
   */
  preloadModel?: boolean | undefined;
  /** Delay between a mutation and the write of `vector.json`, in ms. Default 250. */
  persistDebounceMs?: number | undefined;
}

export interface VectorService {
  handler: RestHandler;
  /** The effective index settings. */
  config: VectorIndexConfig;
  /** Writes pending changes to disk (if a dataDir is set). */
  close(): Promise<void>;
}

/** File name of the persisted index inside `dataDir`. */
export const VECTOR_FILE = "vector.json";

/**
 * Creates the offline Upstash Vector REST emulator (a dense, sparse or hybrid index). Throws if
 * the configuration is invalid (e.g. dimension above 3072) or the data file cannot be loaded.
 */
export async function createVectorService(options: VectorServiceOptions): Promise<VectorService> {
  const config = resolveVectorConfig(options.index);
  const usesSentenceModel = config.embedding && config.kind !== "sparse" && config.denseModel === "USE_LITE";
  // Loaded in the background: the listener answers at once, the first embedding waits for the model.
  if (usesSentenceModel && options.preloadModel !== false) preloadSentenceModel();
  const store = new VectorStore(config.dimension);
  let persister: Persister | undefined;
  const ctx: VectorContext = {
    config,
    store,
    indexName: "upstash-local",
    changed: () => persister?.markDirty(),
  };
  if (options.dataDir !== undefined && options.dataDir !== "") {
    const file = join(options.dataDir, VECTOR_FILE);
    const { rebuilt } = await loadInto(file, store, config, (texts) => embedRecords(ctx, texts));
    persister = new Persister(file, store, config.kind, options.persistDebounceMs, config.embedding ? config.denseModel : undefined);
    if (rebuilt) persister.markDirty();
  }
  return {
    handler: createHttpHandler(ctx, options.token, new ResumableQueries()),
    config,
    close: async () => {
      await persister?.close();
    },
  };
}
