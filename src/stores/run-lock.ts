/** @module RedisRunLock: a deployment-wide lease on one Redis key (SET NX PX, compare-and-delete), the cron's run lock. */
import type { RunLock } from "../memory/ports/index.ts";
import { InvalidStoreInput } from "./errors.ts";
import { assertId } from "./keys.ts";
import { UNLOCK_LUA } from "./lua/lock.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

/**
 * {@link RunLock} on Upstash Redis under one key (the cleanup's is `CRON_KEYS.cleanupLock`): taken
 * with one plain `SET key token NX PX lease`, released by the compare-and-delete script the
 * compression lock uses, so only the owner's token frees it.
 */
export class RedisRunLock implements RunLock {
  readonly #redis: RedisClient;
  readonly #scripts: ScriptRunner;
  readonly #key: string;

  constructor(redis: RedisClient, key: string) {
    this.#redis = redis;
    this.#scripts = new ScriptRunner(redis);
    this.#key = key;
  }

  async tryAcquire(token: string, leaseMs: number): Promise<boolean> {
    if (!Number.isSafeInteger(leaseMs) || leaseMs <= 0) throw new InvalidStoreInput("lease must be a positive integer of ms");
    const result = await this.#redis.set(this.#key, assertId("lock token", token), { nx: true, px: leaseMs });
    return result === "OK";
  }

  async release(token: string): Promise<void> {
    await this.#scripts.run(UNLOCK_LUA, [this.#key], [assertId("lock token", token)]);
  }
}
