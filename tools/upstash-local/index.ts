/** @module upstash-local: starts the Upstash Redis REST and Upstash Vector REST emulators on their own listeners. */
import { startListener, type Listener } from "./listener.ts";
import { createRedisService } from "./redis/index.ts";
import { createVectorService, type VectorIndexConfig, type VectorIndexSettings } from "./vector/index.ts";

/** Options of {@link startUpstashLocal}. */
export interface UpstashLocalOptions {
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Redis REST port. Default 8079; 0 picks a free port. */
  redisPort?: number;
  /** Vector REST port. Default 8081; 0 picks a free port. */
  vectorPort?: number;
  /** Bearer token both emulators accept. Default `local-dev-token`. */
  token?: string;
  /** Forward Redis commands to this real Redis (`redis://host:port[/db]`). Default: embedded engine. */
  redisUrl?: string;
  /** Folder for persisted data. Default: none (in memory only). */
  dataDir?: string;
  /** Fixed delay added to every request, in ms. Default 0. */
  delayMs?: number;
  /** Vector index settings. Default: a hybrid index (1024-dim COSINE dense part + BM25), embedding on. */
  vector?: VectorIndexSettings;
}

export interface UpstashLocal {
  token: string;
  redis: Listener;
  vector: Listener;
  /** The effective Vector index settings (kind, dimension, models). */
  vectorIndex: VectorIndexConfig;
  /** The variables a client needs, e.g. `UPSTASH_REDIS_REST_URL`. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export const DEFAULT_TOKEN = "local-dev-token";

export async function startUpstashLocal(options: UpstashLocalOptions = {}): Promise<UpstashLocal> {
  const token = options.token ?? DEFAULT_TOKEN;
  const host = options.host ?? "127.0.0.1";
  const redisService = await createRedisService({
    token,
    redisUrl: options.redisUrl,
    dataDir: options.dataDir,
  });
  const vectorService = await createVectorService({
    token,
    dataDir: options.dataDir,
    index: options.vector,
  });
  const redis = await startListener({
    host,
    port: options.redisPort ?? 8079,
    handler: redisService.handler,
    delayMs: options.delayMs,
  });
  const vector = await startListener({
    host,
    port: options.vectorPort ?? 8081,
    handler: vectorService.handler,
    delayMs: options.delayMs,
  });
  return {
    token,
    redis,
    vector,
    vectorIndex: vectorService.config,
    env: {
      UPSTASH_REDIS_REST_URL: redis.url,
      UPSTASH_REDIS_REST_TOKEN: token,
      UPSTASH_VECTOR_REST_URL: vector.url,
      UPSTASH_VECTOR_REST_TOKEN: token,
    },
    async close() {
      await Promise.all([redis.close(), vector.close()]);
      await Promise.all([redisService.close(), vectorService.close()]);
    },
  };
}
