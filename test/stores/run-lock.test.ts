import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidIdError, InvalidStoreInput } from "../../src/stores/errors.ts";
import { CRON_KEYS } from "../../src/stores/keys.ts";
import { RedisRunLock } from "../../src/stores/run-lock.ts";
import { startUpstashLocal, type UpstashLocal } from "../../tools/upstash-local/index.ts";
import { deleteByPrefix, redisVariants } from "../emulator/redis/variants.ts";

/** The cron's run lock on Redis (embedded engine, and a real Redis when one answers). */
const run = `rl${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
let n = 0;
// Each test its own key under this run's prefix: the deployment's key may be in use on a shared Redis.
const lockKey = (): string => `am:${run}:lock${(n += 1)}`;

describe("the cleanup's run lock key", () => {
  it("is deployment-wide, beside the cleanup's cursor", () => {
    expect(CRON_KEYS.cleanupLock).toBe(`${CRON_KEYS.cleanupCursor}-lock`);
    expect(new Set(Object.values(CRON_KEYS)).size).toBe(Object.values(CRON_KEYS).length);
  });
});

for (const variant of await redisVariants()) {
  describe(`run lock (${variant.name})`, () => {
    let local: UpstashLocal;
    let redis: Redis;
    beforeAll(async () => {
      local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, ...(variant.redisUrl ? { redisUrl: variant.redisUrl } : {}) });
      redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
    });
    afterAll(async () => {
      await deleteByPrefix(redis, `am:${run}:`);
      await local.close();
    });

    it("admits one holder; a release by another token does nothing; the owner's release frees it", async () => {
      const key = lockKey();
      const lock = new RedisRunLock(redis, key);
      expect(await lock.tryAcquire("run-a", 60_000)).toBe(true);
      expect(await redis.get(key)).toBe("run-a");
      expect(await lock.tryAcquire("run-b", 60_000)).toBe(false);
      // a run whose lease expired must not free the next run's lease
      await lock.release("run-b");
      expect(await redis.get(key)).toBe("run-a");
      expect(await lock.tryAcquire("run-b", 60_000)).toBe(false);
      await lock.release("run-a");
      expect(await redis.exists(key)).toBe(0);
      expect(await lock.tryAcquire("run-b", 60_000)).toBe(true);
      await lock.release("run-b");
    });

    it("the lease expires when its run never releases it", async () => {
      const key = lockKey();
      const lock = new RedisRunLock(redis, key);
      expect(await lock.tryAcquire("dead-run", 60)).toBe(true);
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60);
      await new Promise((r) => setTimeout(r, 150));
      expect(await lock.tryAcquire("next-run", 60_000)).toBe(true);
      await lock.release("next-run");
    });

    it("refuses a lease that is not a positive integer and a token that is not an id, writing nothing", async () => {
      const key = lockKey();
      const lock = new RedisRunLock(redis, key);
      await expect(lock.tryAcquire("run-a", 0)).rejects.toThrow(InvalidStoreInput);
      await expect(lock.tryAcquire("run-a", 1.5)).rejects.toThrow(InvalidStoreInput);
      await expect(lock.tryAcquire("a:b", 1000)).rejects.toThrow(InvalidIdError);
      await expect(lock.release("a*")).rejects.toThrow(InvalidIdError);
      expect(await redis.exists(key)).toBe(0);
    });
  });
}
