import type { Redis } from "@upstash/redis/cloudflare";
import type { Index } from "@upstash/vector/cloudflare";
import { createIndex, createRedis } from "./clients.ts";
import type { Config } from "./config.ts";

/** What a request may use, built from the configuration; nothing here opens a connection. */
export interface Deps {
  clients: { redis: Redis | null; vector: Index | null };
  /** Hands background work to the runtime (ctx.waitUntil). */
  background: (work: Promise<unknown>) => void;
}

interface BackgroundContext {
  waitUntil(promise: Promise<unknown>): void;
}

export function createDeps(config: Config, ctx: BackgroundContext | undefined): Deps {
  const redis = config.redis ? createRedis(config.redis, config.upstreamTimeoutMs) : null;
  const vector = config.vector ? createIndex(config.vector, config.upstreamTimeoutMs) : null;
  return {
    clients: { redis, vector },
    background: (work) => {
      const guarded = work.catch((err: unknown) => {
        console.error(JSON.stringify({ level: "error", msg: "background work failed", error: String(err) }));
      });
      if (ctx) ctx.waitUntil(guarded);
    },
  };
}
