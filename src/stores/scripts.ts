/** @module The Redis client surface the stores use and ScriptRunner, which runs Lua by EVALSHA with a fallback to EVAL. */
import type { Redis } from "@upstash/redis";

/**
 * The part of the `@upstash/redis` client the stores use. Both the Node and the Cloudflare
 * `Redis` classes satisfy it; tests may pass a wrapped client.
 */
export type RedisClient = Pick<Redis, "createScript" | "set" | "get" | "hdel" | "srandmember">;

type ScriptHandle = ReturnType<RedisClient["createScript"]>;

/**
 * Runs Lua sources with EVALSHA and falls back to EVAL on NOSCRIPT (what `createScript` does),
 * creating each script object once per runner so its SHA-1 is computed once.
 */
export class ScriptRunner {
  readonly #redis: RedisClient;
  readonly #scripts = new Map<string, ScriptHandle>();

  constructor(redis: RedisClient) {
    this.#redis = redis;
  }

  run(source: string, keys: string[], args: string[]): Promise<unknown> {
    let script = this.#scripts.get(source);
    if (!script) {
      script = this.#redis.createScript<unknown>(source);
      this.#scripts.set(source, script);
    }
    return script.exec(keys, args);
  }
}
