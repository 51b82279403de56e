import { join } from "node:path";
import type { RestHandler } from "../listener.ts";
import { resolveVectorConfig, type VectorIndexConfig } from "./config.ts";
import type { VectorContext } from "./context.ts";
import { createHttpHandler } from "./http.ts";
import { Persister } from "./persister.ts";
import { loadInto } from "./snapshot.ts";
import { ResumableQueries } from "./resumable.ts";
import { VectorStore } from "./store.ts";

export {
  DEFAULT_VECTOR_CONFIG, EMBEDDING_MODEL_NAME, MAX_DIMENSION, resolveVectorConfig, vectorConfigFromEnv,
  type SimilarityFunction, type VectorIndexConfig,
} from "./config.ts";
export { embedText } from "./embedder.ts";
export { LIMITS } from "./limits.ts";

/** Options of {@link createVectorService}. */
export interface VectorServiceOptions {
  /** Bearer token every request must carry (`Authorization: Bearer <token>`). */
  token: string;
  /** Folder for `vector.json`. Default: none, data is kept in memory only. */
  dataDir?: string | undefined;
  /** Index settings. Default: 384 dimensions, COSINE, embedding on (see {@link VectorIndexConfig}). */
  index?: Partial<VectorIndexConfig> | undefined;
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
 * Creates the offline Upstash Vector REST emulator (a dense index). Throws if the configuration is
 * invalid (e.g. dimension above 3072) or the data file cannot be loaded.
 */
export async function createVectorService(options: VectorServiceOptions): Promise<VectorService> {
  const config = resolveVectorConfig(options.index);
  const store = new VectorStore(config.dimension);
  let persister: Persister | undefined;
  if (options.dataDir !== undefined && options.dataDir !== "") {
    const file = join(options.dataDir, VECTOR_FILE);
    await loadInto(file, store);
    persister = new Persister(file, store, options.persistDebounceMs);
  }
  const ctx: VectorContext = {
    config,
    store,
    indexName: "upstash-local",
    changed: () => persister?.markDirty(),
  };
  return {
    handler: createHttpHandler(ctx, options.token, new ResumableQueries()),
    config,
    close: async () => {
      await persister?.close();
    },
  };
}
