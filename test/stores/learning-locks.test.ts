import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FactScope } from "../../src/memory/ports/facts.ts";
import { learningKeys } from "../../src/stores/keys.ts";
import { RedisLearningLocks } from "../../src/stores/learning-locks.ts";
import { RedisUserStore } from "../../src/stores/user-store.ts";
import { startUpstashLocal, type UpstashLocal } from "../../tools/upstash-local/index.ts";
import { deleteByPrefix, redisVariants } from "../emulator/redis/variants.ts";

/** The per-user learning lock on Redis (embedded engine, and a real Redis when one answers). */
const run = `ll${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
let n = 0;
const scope = (): FactScope => ({ tenant: run, userId: `u${(n += 1)}` });
const T0 = 1_800_000_000_000;

for (const variant of await redisVariants()) {
  describe(`learning locks (${variant.name})`, () => {
    let local: UpstashLocal;
    let redis: Redis;
    let locks: RedisLearningLocks;
    beforeAll(async () => {
      local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, ...(variant.redisUrl ? { redisUrl: variant.redisUrl } : {}) });
      redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
      locks = new RedisLearningLocks(redis, { keepWrittenMs: 60_000, maxWritten: 3 });
    });
    afterAll(async () => {
      await deleteByPrefix(redis, `am:${run}:`);
      await local.close();
    });

    it("admits one holder at a time; only the holder's token releases it; the next holder gets the ids written, newest first", async () => {
      const s = scope();
      expect(await locks.tryAcquire(s, "a1", 5000)).toEqual({ token: "a1", written: [] });
      expect(await locks.tryAcquire(s, "b1", 5000)).toBeNull();
      // a holder whose lock expired must not free the next holder's lock
      await locks.release(s, "zz", [], T0, T0);
      expect(await locks.tryAcquire(s, "b1", 5000)).toBeNull();
      await locks.release(s, "a1", ["f1", "f2"], T0, T0);
      const next = await locks.tryAcquire(s, "b1", 5000);
      expect(next?.written.sort()).toEqual(["f1", "f2"]);
      await locks.release(s, "b1", ["f3", "f4"], T0, T0 + 1000);
      // capped at the newest three
      expect((await locks.tryAcquire(s, "c1", 5000))?.written.slice(0, 2).sort()).toEqual(["f3", "f4"]);
      expect(await redis.zcard(learningKeys(s.tenant, s.userId).written)).toBe(3);
      await locks.release(s, "c1", [], T0, T0 + 1000);
    });

    it("drops ids older than the keep window and lets the lock expire", async () => {
      const s = scope();
      await locks.tryAcquire(s, "a1", 50);
      await locks.release(s, "a1", ["old"], T0, T0);
      await locks.tryAcquire(s, "a2", 50);
      await locks.release(s, "a2", ["new"], T0, T0 + 61_000);
      expect((await locks.tryAcquire(s, "a3", 50))?.written).toEqual(["new"]);
      await new Promise((r) => setTimeout(r, 120));
      expect(await locks.tryAcquire(s, "a4", 5000)).not.toBeNull();
    });

    it("records nothing once the user was erased since the turn began, and the erase removes the lock and the ids", async () => {
      const s = scope();
      const users = new RedisUserStore(redis);
      await locks.tryAcquire(s, "a1", 5000);
      await locks.release(s, "a1", ["f1"], T0, T0);
      await locks.tryAcquire(s, "a2", 5000);
      await users.markErased(s, T0 + 10);
      const keys = learningKeys(s.tenant, s.userId);
      expect(await redis.exists(keys.lock, keys.written)).toBe(0);
      await locks.tryAcquire(s, "a3", 5000);
      await locks.release(s, "a3", ["f2"], T0 + 5, T0 + 20);
      expect(await redis.exists(keys.written)).toBe(0);
      expect(await redis.exists(keys.lock)).toBe(0);
    });
  });
}
