import { describe, expect, it } from "vitest";
import { InvalidIdError, SessionOwnerMismatch } from "../../../src/stores/errors.ts";
import { sessionKeys, tenantSessionsKey, userSessionsKey } from "../../../src/stores/keys.ts";
import type { RedisSessionStore } from "../../../src/stores/session-store.ts";
import { BACKENDS, sessionStoresOn, tenant, TTL } from "./fixture.ts";

describe.each(BACKENDS)("session stores on upstash-local (%s)", (_name, redisUrl) => {
  const s = sessionStoresOn(redisUrl);
  const { nextRef, msg, roundTrips, commitFor } = s;

  describe("append", () => {
    it("pins system messages, counts window tokens and records the owner", async () => {
      const ref = nextRef();
      const result = await s.store.append(
        ref,
        [msg("m0", "system", "be brief", 5), msg("m1", "user", "hi", 3), msg("m2", "assistant", "hello", 4)],
        {
          userId: "alice",
          ttlSeconds: TTL,
        },
      );
      expect(result.added.map((a) => a.duplicate)).toEqual([false, false, false]);
      expect(result.windowCount).toBe(2);
      expect(result.windowTokens).toBe(7);
      expect(result.snapshot).toBeUndefined();

      const snap = await s.store.read(ref);
      expect(snap.exists).toBe(true);
      expect(snap.system.map((m) => m.id)).toEqual(["m0"]);
      expect(snap.window.map((m) => m.id)).toEqual(["m1", "m2"]);
      expect(snap.window[1]).toEqual(msg("m2", "assistant", "hello", 4));
      expect(snap.windowTokens).toBe(7);
      expect(snap.summary).toBeNull();
      expect(snap.meta).toEqual({ userId: "alice", createdAt: s.clock, updatedAt: s.clock, epoch: 0, summaryFailures: 0 });
      expect(snap.settings).toEqual({});
    });

    it("is idempotent on message ids, across calls and within one batch", async () => {
      const ref = nextRef();
      await s.store.append(ref, [msg("a", "user", "one", 3), msg("b", "assistant", "two", 4)], { ttlSeconds: TTL });
      const again = await s.store.append(ref, [msg("a", "user", "one", 3), msg("c", "user", "three", 5), msg("c", "user", "three", 5)], {
        ttlSeconds: TTL,
      });
      expect(again.added).toEqual([
        { id: "a", tokens: 3, duplicate: true },
        { id: "c", tokens: 5, duplicate: false },
        { id: "c", tokens: 5, duplicate: true },
      ]);
      expect(again.windowCount).toBe(3);
      expect(again.windowTokens).toBe(12);
      const snap = await s.store.read(ref);
      expect(snap.window.map((m) => m.id)).toEqual(["a", "b", "c"]);
    });

    it("sets the TTL on every session key and refreshes it on each write", async () => {
      const ref = nextRef();
      const k = sessionKeys(ref);
      await s.store.append(ref, [msg("s", "system", "sys"), msg("u1", "user", "x"), msg("u2", "user", "y")], {
        userId: "ttl-user",
        ttlSeconds: 100,
      });
      await s.store.commitCompression(ref, commitFor(0, 0, ["u1"], { ttlSeconds: 100 }));
      for (const key of [k.sys, k.win, k.sum, k.meta, k.arc, k.ids]) {
        const ttl = await s.redis.ttl(key);
        expect(ttl, key).toBeGreaterThan(90);
        expect(ttl, key).toBeLessThanOrEqual(100);
      }
      await s.store.append(ref, [msg("u3", "user", "z")], { ttlSeconds: 5000 });
      for (const key of [k.sys, k.win, k.sum, k.meta, k.arc, k.ids]) {
        expect(await s.redis.ttl(key), key).toBeGreaterThan(4900);
      }
      // indexes only ever get longer TTLs, so a short-lived session never shortens them
      expect(await s.redis.ttl(tenantSessionsKey(tenant))).toBeGreaterThan(4900);
      expect(await s.redis.ttl(userSessionsKey(tenant, "ttl-user"))).toBeGreaterThan(4900);
    });

    it("rejects a different owner and changes nothing", async () => {
      const ref = nextRef();
      await s.store.append(ref, [msg("a", "user", "mine")], { userId: "alice", ttlSeconds: TTL });
      const before = await s.store.read(ref);
      await expect(s.store.append(ref, [msg("b", "user", "theirs")], { userId: "bob", ttlSeconds: TTL })).rejects.toBeInstanceOf(
        SessionOwnerMismatch,
      );
      expect(await s.store.read(ref)).toEqual(before);
      // no userId on a later write is fine and keeps the owner
      await s.store.append(ref, [msg("c", "user", "anon")], { ttlSeconds: TTL });
      expect((await s.store.read(ref)).meta?.userId).toBe("alice");
    });

    it("returns the snapshot in the same round trip when asked", async () => {
      const ref = nextRef();
      await s.store.append(ref, [msg("w", "user", "warm")], { ttlSeconds: TTL, withSnapshot: true }); // loads the script
      let result: Awaited<ReturnType<RedisSessionStore["append"]>> | undefined;
      const trips = await roundTrips(async () => {
        result = await s.store.append(ref, [msg("x", "user", "now")], { ttlSeconds: TTL, withSnapshot: true });
      });
      expect(trips).toBe(1);
      expect(result?.snapshot).toEqual(await s.store.read(ref));
      expect(result?.snapshot?.window.map((m) => m.id)).toEqual(["w", "x"]);
    });

    it("replaces differing pinned system messages only when asked", async () => {
      const ref = nextRef();
      await s.store.append(ref, [msg("sysA", "system", "be terse"), msg("u1", "user", "hi")], { ttlSeconds: TTL });
      const kept = await s.store.append(ref, [msg("sysB", "system", "be a pirate")], { ttlSeconds: TTL });
      expect(kept.added[0]?.duplicate).toBe(false);
      expect((await s.store.read(ref)).system.map((m) => m.id)).toEqual(["sysA", "sysB"]);

      const replaced = await s.store.append(ref, [msg("sysC", "system", "be kind"), msg("u2", "user", "again")], {
        ttlSeconds: TTL,
        replaceSystem: true,
      });
      expect(replaced.added.map((a) => a.duplicate)).toEqual([false, false]);
      let snap = await s.store.read(ref);
      expect(snap.system.map((m) => m.id)).toEqual(["sysC"]);
      expect(snap.window.map((m) => m.id)).toEqual(["u1", "u2"]);

      // the same prompt again is a duplicate and changes nothing; no system message keeps the pinned one
      const same = await s.store.append(ref, [msg("sysC", "system", "be kind")], { ttlSeconds: TTL, replaceSystem: true });
      expect(same.added[0]?.duplicate).toBe(true);
      await s.store.append(ref, [msg("u3", "user", "more")], { ttlSeconds: TTL, replaceSystem: true });
      snap = await s.store.read(ref);
      expect(snap.system.map((m) => m.id)).toEqual(["sysC"]);
      // a replaced prompt's id is free again
      await s.store.append(ref, [msg("sysA", "system", "be terse")], { ttlSeconds: TTL, replaceSystem: true });
      expect((await s.store.read(ref)).system.map((m) => m.id)).toEqual(["sysA"]);
    });

    it("keeps every concurrent append", async () => {
      const ref = nextRef();
      const writes = Array.from({ length: 20 }, (_, i) => s.store.append(ref, [msg(`c${i}`, "user", `n${i}`, i + 1)], { ttlSeconds: TTL }));
      await Promise.all(writes);
      const snap = await s.store.read(ref);
      expect(snap.window).toHaveLength(20);
      expect(snap.windowTokens).toBe((20 * 21) / 2);
    });

    it("stores text that looks like JSON, numbers or booleans unchanged", async () => {
      const ref = nextRef();
      const tricky = ["123", "[1, 2]", "true", "null", '{"a": 1}', "1.0", 'quote " and \\ backslash', "émoji 🧠 中文", "T0s="];
      await s.store.append(
        ref,
        tricky.map((c, i) => msg(`t${i}`, "user", c, 1)),
        { ttlSeconds: TTL },
      );
      const snap = await s.store.read(ref);
      expect(snap.window.map((m) => m.content)).toEqual(tricky);
      await s.store.commitCompression(ref, { ...commitFor(0, 0, ["t0"]), summary: { ...commitFor(0, 0, ["t0"]).summary, text: "42" } });
      expect((await s.store.read(ref)).summary?.text).toBe("42");
    });
  });

  describe("identifiers", () => {
    it("rejects invalid ids before anything is sent", async () => {
      const bad = ["", "a:b", "a*", "x y", "../x", "a'b", "é", "a".repeat(129)];
      for (const id of bad) {
        const trips = await roundTrips(async () => {
          await expect(s.store.read({ tenant, sessionId: id })).rejects.toBeInstanceOf(InvalidIdError);
          await expect(
            s.store.append({ tenant: id, sessionId: "ok" }, [msg("a", "user", "x")], { ttlSeconds: TTL }),
          ).rejects.toBeInstanceOf(InvalidIdError);
          await expect(
            s.store.append({ tenant, sessionId: "ok" }, [msg("a", "user", "x")], { userId: id, ttlSeconds: TTL }),
          ).rejects.toBeInstanceOf(InvalidIdError);
          await expect(s.store.userSessions(tenant, id, { offset: 0, limit: 10 })).rejects.toBeInstanceOf(InvalidIdError);
        });
        expect(trips, id).toBe(0);
      }
    });
  });
});
