/** @module Upstash Redis REST emulator service: the HTTP handler over a real Redis or the embedded engine. */
import type { RestHandler } from "../listener.ts";
import { createEmbeddedBackend } from "./embedded/backend.ts";
import { createRedisHandler } from "./http.ts";
import { createRespBackend } from "./resp/backend.ts";

/** Options of {@link createRedisService}. */
export interface RedisServiceOptions {
  /** Bearer token clients must send (or pass as `?_token=`). */
  token: string;
  /**
   * Forward commands to this real Redis, e.g. `redis://127.0.0.1:6379` or
   * `redis://:password@host:6379/2`. Default: undefined, which uses the embedded engine.
   */
  redisUrl?: string | undefined;
  /**
   * Folder where the embedded engine keeps `redis.json`. Default: undefined, in memory only.
   * Ignored when `redisUrl` is set (the real Redis owns its data).
   */
  dataDir?: string | undefined;
}

export interface RedisService {
  handler: RestHandler;
  /** Flushes persisted data and closes backend connections. */
  close(): Promise<void>;
}

/** The Upstash Redis REST emulator: HTTP handling over a real Redis or the embedded engine. */
export async function createRedisService(options: RedisServiceOptions): Promise<RedisService> {
  const backend =
    options.redisUrl !== undefined && options.redisUrl !== ""
      ? await createRespBackend({ url: options.redisUrl })
      : await createEmbeddedBackend({ dataDir: options.dataDir });
  return {
    handler: createRedisHandler({ token: options.token, backend }),
    close: () => backend.close(),
  };
}

export type { RedisBackend } from "./backend.ts";
