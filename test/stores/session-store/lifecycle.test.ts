import { describe, expect, it } from "vitest";
import { ownersKey, sessionKeys, tenantSessionsKey, userSessionsKey } from "../../../src/stores/keys.ts";
import { BACKENDS, sessionStoresOn, tenant, TTL } from "./fixture.ts";

describe.each(BACKENDS)("session stores on upstash-local (%s)", (_name, redisUrl) => {
  const s = sessionStoresOn(redisUrl);
  const { nextRef, msg, roundTrips, commitFor } = s;

  describe("reset and destroy", () => {
    it("reset keeps pinned system messages when asked and bumps the epoch", async () => {
      const ref = nextRef();
      await s.store.append(ref, [msg("sys", "system", "rules", 2), msg("a", "user", "x", 5), msg("b", "user", "y", 6)], {
        userId: "carol",
        ttlSeconds: TTL,
      });
      await s.store.commitCompression(ref, commitFor(0, 0, ["a"]));
      await s.working.setNote(ref, "k", "v", TTL);
      await s.working.appendScratch(ref, "step", TTL, 10);
      await s.store.updateSettings(ref, { keep: 4 }, TTL);

      expect(await s.store.reset(ref, { keepSystem: true })).toEqual({ removedMessages: 1, keptSystem: 1 });
      const snap = await s.store.read(ref);
      expect(snap.system.map((m) => m.id)).toEqual(["sys"]);
      expect(snap.window).toEqual([]);
      expect(snap.windowTokens).toBe(0);
      expect(snap.summary).toBeNull();
      expect(snap.meta?.epoch).toBe(1);
      expect(snap.meta?.userId).toBe("carol");
      expect(snap.settings).toEqual({ keep: 4 });
      expect(await s.working.getNotes(ref)).toEqual({});
      expect(await s.working.getScratch(ref)).toEqual([]);
      expect((await s.store.history(ref, { offset: 0, limit: 5 })).total).toBe(0);
      // the kept system prompt stays idempotent; old window ids may be written again
      const again = await s.store.append(ref, [msg("sys", "system", "rules", 2), msg("a", "user", "x", 5)], { ttlSeconds: TTL });
      expect(again.added.map((a) => a.duplicate)).toEqual([true, false]);

      expect(await s.store.reset(ref, { keepSystem: false })).toEqual({ removedMessages: 2, keptSystem: 0 });
      const cleared = await s.store.read(ref);
      expect(cleared.system).toEqual([]);
      expect(cleared.meta?.epoch).toBe(2);
    });

    it("erasing a user's sessions deletes every key, both index entries and the owner record", async () => {
      const ref = nextRef();
      await s.store.append(ref, [msg("sys", "system", "r"), msg("a", "user", "x"), msg("b", "user", "y")], {
        userId: "dave",
        ttlSeconds: TTL,
      });
      await s.store.commitCompression(ref, commitFor(0, 0, ["a"]));
      await s.working.setNote(ref, "k", "v", TTL);
      await s.store.acquireLock(ref, "tok", 10_000);
      expect((await s.store.userSessions(tenant, "dave", { offset: 0, limit: 10 })).ids).toContain(ref.sessionId);
      expect(await s.redis.hget(ownersKey(tenant), ref.sessionId)).toBe("dave");

      expect(await s.store.eraseUserSessions(tenant, "dave", 10)).toEqual({
        sessions: 1,
        messages: 2,
        archived: 1,
        notes: 1,
        skipped: 0,
        more: false,
      });
      const k = sessionKeys(ref);
      expect(await s.redis.exists(k.sys, k.win, k.sum, k.meta, k.arc, k.ids, k.notes, k.pad, k.lock)).toBe(0);
      expect(await s.redis.zscore(tenantSessionsKey(tenant), ref.sessionId)).toBeNull();
      expect(await s.redis.exists(userSessionsKey(tenant, "dave"))).toBe(0);
      expect(await s.redis.hget(ownersKey(tenant), ref.sessionId)).toBeNull();
      expect((await s.store.read(ref)).exists).toBe(false);
    });
  });

  describe("settings, lock, user index, sweep", () => {
    it("stores settings in meta in one round trip and refreshes the TTL the session will have", async () => {
      const ref = nextRef();
      await s.store.updateSettings(ref, { window: 1 }, TTL); // loads the script
      expect(await roundTrips(() => s.store.updateSettings(ref, { window: 20, maxTokens: 4000, keep: 6, ttlSeconds: 3600 }, TTL))).toBe(1);
      const snap = await s.store.read(ref);
      expect(snap.exists).toBe(true);
      expect(snap.settings).toEqual({ window: 20, maxTokens: 4000, keep: 6, ttlSeconds: 3600 });
      expect(await s.redis.ttl(sessionKeys(ref).meta)).toBeGreaterThan(3500);
      expect(await s.store.updateSettings(ref, { window: null, keep: null, ttlSeconds: null }, TTL)).toEqual({ maxTokens: 4000 });
      expect(await s.redis.ttl(sessionKeys(ref).meta)).toBeLessThanOrEqual(TTL);
    });

    it("lock is exclusive, expires and is released only by its holder", async () => {
      const ref = nextRef();
      expect(await s.store.acquireLock(ref, "one", 5000)).toBe(true);
      expect(await s.store.acquireLock(ref, "two", 5000)).toBe(false);
      const pttl = await s.redis.pttl(sessionKeys(ref).lock);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(5000);
      await s.store.releaseLock(ref, "two");
      expect(await s.store.acquireLock(ref, "two", 5000)).toBe(false);
      await s.store.releaseLock(ref, "one");
      expect(await s.store.acquireLock(ref, "two", 5000)).toBe(true);
    });

    it("lists a user's sessions, most recent first", async () => {
      const a = nextRef();
      const b = nextRef();
      await s.store.append(a, [msg("x", "user", "1")], { userId: "erin", ttlSeconds: TTL });
      s.clock += 10;
      await s.store.append(b, [msg("x", "user", "1")], { userId: "erin", ttlSeconds: TTL });
      s.clock += 10;
      await s.store.append(a, [msg("y", "user", "2")], { ttlSeconds: TTL }); // owner known: index refreshed
      const page = { offset: 0, limit: 10 };
      expect((await s.store.userSessions(tenant, "erin", page)).ids).toEqual([a.sessionId, b.sessionId]);
      expect((await s.store.userSessions(tenant, "nobody", page)).ids).toEqual([]);
      // members the client would JSON-parse into numbers or booleans come back as the same strings
      for (const sessionId of ["42", "1e3", "true", "007"]) {
        s.clock += 10;
        await s.store.append({ tenant, sessionId }, [msg("x", "user", "1")], { userId: "frank", ttlSeconds: TTL });
      }
      expect((await s.store.userSessions(tenant, "frank", page)).ids).toEqual(["007", "true", "1e3", "42"]);
    });

    it("never fails a script on a stored message it could not decode (metadata nested 1,500 deep)", async () => {
      const ref = nextRef();
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 1500; i++) deep = { d: deep };
      await s.store.append(ref, [msg("sys", "system", "rules"), { ...msg("a", "user", "deep"), metadata: deep }, msg("b", "user", "y")], {
        ttlSeconds: TTL,
      });
      // the commit reads the prefix ids and tokens without decoding the messages
      expect(await s.store.commitCompression(ref, commitFor(0, 0, ["a"]))).toEqual({ committed: true, removedTokens: 10 });
      // replacing the pinned prompt and a reset keeping it read the pinned ids the same way
      await s.store.append(ref, [{ ...msg("sys2", "system", "new rules"), metadata: deep }], { ttlSeconds: TTL, replaceSystem: true });
      await s.store.append(ref, [msg("sys3", "system", "newer")], { ttlSeconds: TTL, replaceSystem: true });
      expect((await s.store.read(ref)).system.map((m) => m.id)).toEqual(["sys3"]);
      expect(await s.store.reset(ref, { keepSystem: true })).toEqual({ removedMessages: 1, keptSystem: 1 });
    });
  });
});
