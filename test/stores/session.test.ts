import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CompressionCommit } from "../../src/memory/ports/sessions.ts";
import type { Role, SessionRef, StoredMessage } from "../../src/memory/model.ts";
import { InvalidIdError, SessionOwnerMismatch } from "../../src/stores/errors.ts";
import { ownersKey, sessionKeys, tenantSessionsKey, userSessionsKey } from "../../src/stores/keys.ts";
import { ScriptRunner } from "../../src/stores/scripts.ts";
import { RedisSessionStore } from "../../src/stores/session-store.ts";
import { RedisWorkingMemoryStore } from "../../src/stores/working-memory-store.ts";
import { startUpstashLocal, type UpstashLocal } from "../../tools/upstash-local/index.ts";
import { redisVariants } from "../emulator/redis/variants.ts";

// Runs through the official client against upstash-local, once forwarding to the run's real Redis
// (when it has one) and once on its embedded engine (what `npm run dev` uses without a Redis), so the
// Lua scripts are proven on both. A per-run tenant keeps this file's keys apart from other suites'.
const tenant = `st${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const TTL = 600;

const BACKENDS: [string, string | undefined][] = (await redisVariants()).map((v) => [v.name, v.redisUrl]);

describe.each(BACKENDS)("session stores on upstash-local (%s)", (_name, redisUrl) => {
  let local: UpstashLocal;
  let redis: Redis;
  let store: RedisSessionStore;
  let working: RedisWorkingMemoryStore;
  let clock = 1_700_000_000_000;
  let seq = 0;

  const nextRef = (): SessionRef => ({ tenant, sessionId: `s${++seq}` });

  function msg(id: string, role: Role, content: string, tokens = 10): StoredMessage {
    return { id, role, content, tokens, importance: role === "system" ? 1 : 0.5, ts: clock };
  }

  /** Counts HTTP requests the operation sent to the emulator (each is one round trip). */
  async function roundTrips(op: () => Promise<unknown>): Promise<number> {
    local.redis.resetLog();
    await op();
    return local.redis.log.length;
  }

  function commitFor(
    epoch: number,
    expectedVersion: number,
    prefixIds: string[],
    extra: Partial<CompressionCommit> = {},
  ): CompressionCommit {
    return {
      epoch,
      expectedVersion,
      prefixIds,
      summary: {
        text: `summary of ${prefixIds.join(",")}`,
        tokens: 7,
        version: expectedVersion + 1,
        covered: prefixIds.length,
        method: "llm",
        updatedAt: clock,
        lastRatio: 0.25,
      },
      archiveLimit: 100,
      ttlSeconds: TTL,
      ...extra,
    };
  }

  beforeAll(async () => {
    local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, ...(redisUrl ? { redisUrl } : {}) });
    redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
    store = new RedisSessionStore(redis, { now: () => clock });
    working = new RedisWorkingMemoryStore(redis);
  });

  afterAll(async () => {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, { match: `am:${tenant}:*`, count: 500 });
      if (keys.length > 0) await redis.del(...keys);
      cursor = String(next);
    } while (cursor !== "0");
    await local.close();
  });

  beforeEach(() => {
    clock += 1000;
  });

  describe("append", () => {
    it("pins system messages, counts window tokens and records the owner", async () => {
      const ref = nextRef();
      const result = await store.append(
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

      const snap = await store.read(ref);
      expect(snap.exists).toBe(true);
      expect(snap.system.map((m) => m.id)).toEqual(["m0"]);
      expect(snap.window.map((m) => m.id)).toEqual(["m1", "m2"]);
      expect(snap.window[1]).toEqual(msg("m2", "assistant", "hello", 4));
      expect(snap.windowTokens).toBe(7);
      expect(snap.summary).toBeNull();
      expect(snap.meta).toEqual({ userId: "alice", createdAt: clock, updatedAt: clock, epoch: 0, summaryFailures: 0 });
      expect(snap.settings).toEqual({});
    });

    it("is idempotent on message ids, across calls and within one batch", async () => {
      const ref = nextRef();
      await store.append(ref, [msg("a", "user", "one", 3), msg("b", "assistant", "two", 4)], { ttlSeconds: TTL });
      const again = await store.append(ref, [msg("a", "user", "one", 3), msg("c", "user", "three", 5), msg("c", "user", "three", 5)], {
        ttlSeconds: TTL,
      });
      expect(again.added).toEqual([
        { id: "a", tokens: 3, duplicate: true },
        { id: "c", tokens: 5, duplicate: false },
        { id: "c", tokens: 5, duplicate: true },
      ]);
      expect(again.windowCount).toBe(3);
      expect(again.windowTokens).toBe(12);
      const snap = await store.read(ref);
      expect(snap.window.map((m) => m.id)).toEqual(["a", "b", "c"]);
    });

    it("sets the TTL on every session key and refreshes it on each write", async () => {
      const ref = nextRef();
      const k = sessionKeys(ref);
      await store.append(ref, [msg("s", "system", "sys"), msg("u1", "user", "x"), msg("u2", "user", "y")], {
        userId: "ttl-user",
        ttlSeconds: 100,
      });
      await store.commitCompression(ref, commitFor(0, 0, ["u1"], { ttlSeconds: 100 }));
      for (const key of [k.sys, k.win, k.sum, k.meta, k.arc, k.ids]) {
        const ttl = await redis.ttl(key);
        expect(ttl, key).toBeGreaterThan(90);
        expect(ttl, key).toBeLessThanOrEqual(100);
      }
      await store.append(ref, [msg("u3", "user", "z")], { ttlSeconds: 5000 });
      for (const key of [k.sys, k.win, k.sum, k.meta, k.arc, k.ids]) {
        expect(await redis.ttl(key), key).toBeGreaterThan(4900);
      }
      // indexes only ever get longer TTLs, so a short-lived session never shortens them
      expect(await redis.ttl(tenantSessionsKey(tenant))).toBeGreaterThan(4900);
      expect(await redis.ttl(userSessionsKey(tenant, "ttl-user"))).toBeGreaterThan(4900);
    });

    it("rejects a different owner and changes nothing", async () => {
      const ref = nextRef();
      await store.append(ref, [msg("a", "user", "mine")], { userId: "alice", ttlSeconds: TTL });
      const before = await store.read(ref);
      await expect(store.append(ref, [msg("b", "user", "theirs")], { userId: "bob", ttlSeconds: TTL })).rejects.toBeInstanceOf(
        SessionOwnerMismatch,
      );
      expect(await store.read(ref)).toEqual(before);
      // no userId on a later write is fine and keeps the owner
      await store.append(ref, [msg("c", "user", "anon")], { ttlSeconds: TTL });
      expect((await store.read(ref)).meta?.userId).toBe("alice");
    });

    it("returns the snapshot in the same round trip when asked", async () => {
      const ref = nextRef();
      await store.append(ref, [msg("w", "user", "warm")], { ttlSeconds: TTL, withSnapshot: true }); // loads the script
      let result: Awaited<ReturnType<RedisSessionStore["append"]>> | undefined;
      const trips = await roundTrips(async () => {
        result = await store.append(ref, [msg("x", "user", "now")], { ttlSeconds: TTL, withSnapshot: true });
      });
      expect(trips).toBe(1);
      expect(result?.snapshot).toEqual(await store.read(ref));
      expect(result?.snapshot?.window.map((m) => m.id)).toEqual(["w", "x"]);
    });

    it("replaces differing pinned system messages only when asked", async () => {
      const ref = nextRef();
      await store.append(ref, [msg("sysA", "system", "be terse"), msg("u1", "user", "hi")], { ttlSeconds: TTL });
      const kept = await store.append(ref, [msg("sysB", "system", "be a pirate")], { ttlSeconds: TTL });
      expect(kept.added[0]?.duplicate).toBe(false);
      expect((await store.read(ref)).system.map((m) => m.id)).toEqual(["sysA", "sysB"]);

      const replaced = await store.append(ref, [msg("sysC", "system", "be kind"), msg("u2", "user", "again")], {
        ttlSeconds: TTL,
        replaceSystem: true,
      });
      expect(replaced.added.map((a) => a.duplicate)).toEqual([false, false]);
      let snap = await store.read(ref);
      expect(snap.system.map((m) => m.id)).toEqual(["sysC"]);
      expect(snap.window.map((m) => m.id)).toEqual(["u1", "u2"]);

      // the same prompt again is a duplicate and changes nothing; no system message keeps the pinned one
      const same = await store.append(ref, [msg("sysC", "system", "be kind")], { ttlSeconds: TTL, replaceSystem: true });
      expect(same.added[0]?.duplicate).toBe(true);
      await store.append(ref, [msg("u3", "user", "more")], { ttlSeconds: TTL, replaceSystem: true });
      snap = await store.read(ref);
      expect(snap.system.map((m) => m.id)).toEqual(["sysC"]);
      // a replaced prompt's id is free again
      await store.append(ref, [msg("sysA", "system", "be terse")], { ttlSeconds: TTL, replaceSystem: true });
      expect((await store.read(ref)).system.map((m) => m.id)).toEqual(["sysA"]);
    });

    it("keeps every concurrent append", async () => {
      const ref = nextRef();
      const writes = Array.from({ length: 20 }, (_, i) => store.append(ref, [msg(`c${i}`, "user", `n${i}`, i + 1)], { ttlSeconds: TTL }));
      await Promise.all(writes);
      const snap = await store.read(ref);
      expect(snap.window).toHaveLength(20);
      expect(snap.windowTokens).toBe((20 * 21) / 2);
    });

    it("stores text that looks like JSON, numbers or booleans unchanged", async () => {
      const ref = nextRef();
      const tricky = ["123", "[1, 2]", "true", "null", '{"a": 1}', "1.0", 'quote " and \\ backslash', "émoji 🧠 中文", "T0s="];
      await store.append(
        ref,
        tricky.map((c, i) => msg(`t${i}`, "user", c, 1)),
        { ttlSeconds: TTL },
      );
      const snap = await store.read(ref);
      expect(snap.window.map((m) => m.content)).toEqual(tricky);
      await store.commitCompression(ref, { ...commitFor(0, 0, ["t0"]), summary: { ...commitFor(0, 0, ["t0"]).summary, text: "42" } });
      expect((await store.read(ref)).summary?.text).toBe("42");
    });
  });

  describe("read", () => {
    it("costs one round trip and reports a missing session as not existing", async () => {
      const ref = nextRef();
      await store.read(ref); // loads the script
      let snap: Awaited<ReturnType<RedisSessionStore["read"]>> | undefined;
      expect(await roundTrips(async () => (snap = await store.read(ref)))).toBe(1);
      expect(snap).toEqual({ exists: false, system: [], window: [], windowTokens: 0, summary: null, meta: null, settings: {} });
    });

    it("costs one round trip for append and commit in steady state", async () => {
      const ref = nextRef();
      await store.append(ref, [msg("a", "user", "x")], { ttlSeconds: TTL });
      expect(await roundTrips(() => store.append(ref, [msg("b", "user", "y"), msg("c", "user", "z")], { ttlSeconds: TTL }))).toBe(1);
      await store.commitCompression(ref, commitFor(0, 0, ["a"]));
      expect(await roundTrips(() => store.commitCompression(ref, commitFor(0, 1, ["b"])))).toBe(1);
      // the steady-state request is an EVALSHA, not the script source
      expect(local.redis.log[0]?.body.toLowerCase()).toContain("evalsha");
    });
  });

  describe("scripts", () => {
    it("fall back to EVAL once when Redis does not know the script, then use EVALSHA", async () => {
      // a source no Redis has seen before, so the first EVALSHA must answer NOSCRIPT
      const source = `-- ${tenant} ${Math.random()}\nreturn cjson.encode({ echo = ARGV[1] })`;
      const runner = new ScriptRunner(redis);
      let first: unknown;
      expect(await roundTrips(async () => (first = await runner.run(source, [], ["123"])))).toBe(2);
      expect(first).toEqual({ echo: "123" });
      expect(local.redis.log.map((e) => e.body.toLowerCase().includes("evalsha"))).toEqual([true, false]);
      expect(await roundTrips(() => runner.run(source, [], ["x"]))).toBe(1);
    });
  });

  describe("commitCompression", () => {
    async function seeded(n: number): Promise<SessionRef> {
      const ref = nextRef();
      const msgs = [
        msg("sys", "system", "rules", 2),
        ...Array.from({ length: n }, (_, i) => msg(`m${i}`, i % 2 ? "assistant" : "user", `text ${i}`, 10 + i)),
      ];
      await store.append(ref, msgs, { ttlSeconds: TTL });
      return ref;
    }

    it("removes exactly the summarized prefix and keeps messages appended meanwhile", async () => {
      const ref = await seeded(4);
      const snap = await store.read(ref);
      // a message arrives while the summarizer runs
      await store.append(ref, [msg("late", "user", "arrived during the LLM call", 9)], { ttlSeconds: TTL });
      const outcome = await store.commitCompression(ref, commitFor(snap.meta?.epoch ?? -1, 0, ["m0", "m1", "m2"]));
      expect(outcome).toEqual({ committed: true, removedTokens: 10 + 11 + 12 });
      const after = await store.read(ref);
      expect(after.window.map((m) => m.id)).toEqual(["m3", "late"]);
      expect(after.windowTokens).toBe(13 + 9);
      expect(after.system.map((m) => m.id)).toEqual(["sys"]);
      expect(after.summary).toEqual({
        text: "summary of m0,m1,m2",
        tokens: 7,
        version: 1,
        covered: 3,
        method: "llm",
        updatedAt: clock,
        lastRatio: 0.25,
      });
      const history = await store.history(ref, { offset: 0, limit: 10 });
      expect(history.archived.map((m) => m.id)).toEqual(["m0", "m1", "m2"]);
      expect(history.total).toBe(3);
      expect(history.summary).toEqual(after.summary);
    });

    it("aborts when the window prefix changed", async () => {
      const ref = await seeded(3);
      const before = await store.read(ref);
      expect(await store.commitCompression(ref, commitFor(0, 0, ["m1", "m0"]))).toEqual({ committed: false, reason: "prefix_changed" });
      expect(await store.commitCompression(ref, commitFor(0, 0, ["m0", "m1", "m2", "m3"]))).toEqual({
        committed: false,
        reason: "prefix_changed",
      });
      expect(await store.read(ref)).toEqual(before);
    });

    it("aborts when another compression committed first", async () => {
      const ref = await seeded(4);
      expect((await store.commitCompression(ref, commitFor(0, 0, ["m0"]))).committed).toBe(true);
      const before = await store.read(ref);
      // a second worker read version 0 as well
      expect(await store.commitCompression(ref, commitFor(0, 0, ["m1"]))).toEqual({ committed: false, reason: "version_changed" });
      expect(await store.read(ref)).toEqual(before);
    });

    it("aborts after a reset in between, even when the same ids were re-sent", async () => {
      const ref = await seeded(2);
      const snap = await store.read(ref);
      await store.reset(ref, { keepSystem: true });
      await store.append(ref, [msg("m0", "user", "text 0", 10), msg("m1", "assistant", "text 1", 11)], { ttlSeconds: TTL });
      const before = await store.read(ref);
      expect(before.meta?.epoch).toBe(1);
      expect(await store.commitCompression(ref, commitFor(snap.meta?.epoch ?? 0, 0, ["m0"]))).toEqual({
        committed: false,
        reason: "reset",
      });
      expect(await store.read(ref)).toEqual(before);
    });

    it("reports a missing session", async () => {
      expect(await store.commitCompression(nextRef(), commitFor(0, 0, ["x"]))).toEqual({ committed: false, reason: "missing" });
    });

    it("keeps only the newest archiveLimit originals, and none with 0", async () => {
      const ref = await seeded(6);
      await store.commitCompression(ref, commitFor(0, 0, ["m0", "m1"], { archiveLimit: 3 }));
      await store.commitCompression(ref, commitFor(0, 1, ["m2", "m3"], { archiveLimit: 3 }));
      const page = await store.history(ref, { offset: 0, limit: 10 });
      expect(page.archived.map((m) => m.id)).toEqual(["m1", "m2", "m3"]);
      expect(page.total).toBe(3);
      const second = await store.history(ref, { offset: 1, limit: 1 });
      expect(second.archived.map((m) => m.id)).toEqual(["m2"]);
      expect(second.total).toBe(3);
      await store.commitCompression(ref, commitFor(0, 2, ["m4"], { archiveLimit: 0 }));
      expect((await store.history(ref, { offset: 0, limit: 10 })).total).toBe(0);
      expect(await redis.exists(sessionKeys(ref).arc)).toBe(0);
    });
  });

  describe("reset and destroy", () => {
    it("reset keeps pinned system messages when asked and bumps the epoch", async () => {
      const ref = nextRef();
      await store.append(ref, [msg("sys", "system", "rules", 2), msg("a", "user", "x", 5), msg("b", "user", "y", 6)], {
        userId: "carol",
        ttlSeconds: TTL,
      });
      await store.commitCompression(ref, commitFor(0, 0, ["a"]));
      await working.setNote(ref, "k", "v", TTL);
      await working.appendScratch(ref, "step", TTL, 10);
      await store.updateSettings(ref, { keep: 4 }, TTL);

      expect(await store.reset(ref, { keepSystem: true })).toEqual({ removedMessages: 1, keptSystem: 1 });
      const snap = await store.read(ref);
      expect(snap.system.map((m) => m.id)).toEqual(["sys"]);
      expect(snap.window).toEqual([]);
      expect(snap.windowTokens).toBe(0);
      expect(snap.summary).toBeNull();
      expect(snap.meta?.epoch).toBe(1);
      expect(snap.meta?.userId).toBe("carol");
      expect(snap.settings).toEqual({ keep: 4 });
      expect(await working.getNotes(ref)).toEqual({});
      expect(await working.getScratch(ref)).toEqual([]);
      expect((await store.history(ref, { offset: 0, limit: 5 })).total).toBe(0);
      // the kept system prompt stays idempotent; old window ids may be written again
      const again = await store.append(ref, [msg("sys", "system", "rules", 2), msg("a", "user", "x", 5)], { ttlSeconds: TTL });
      expect(again.added.map((a) => a.duplicate)).toEqual([true, false]);

      expect(await store.reset(ref, { keepSystem: false })).toEqual({ removedMessages: 2, keptSystem: 0 });
      const cleared = await store.read(ref);
      expect(cleared.system).toEqual([]);
      expect(cleared.meta?.epoch).toBe(2);
    });

    it("erasing a user's sessions deletes every key, both index entries and the owner record", async () => {
      const ref = nextRef();
      await store.append(ref, [msg("sys", "system", "r"), msg("a", "user", "x"), msg("b", "user", "y")], {
        userId: "dave",
        ttlSeconds: TTL,
      });
      await store.commitCompression(ref, commitFor(0, 0, ["a"]));
      await working.setNote(ref, "k", "v", TTL);
      await store.acquireLock(ref, "tok", 10_000);
      expect((await store.userSessions(tenant, "dave", { offset: 0, limit: 10 })).ids).toContain(ref.sessionId);
      expect(await redis.hget(ownersKey(tenant), ref.sessionId)).toBe("dave");

      expect(await store.eraseUserSessions(tenant, "dave", 10)).toEqual({
        sessions: 1,
        messages: 2,
        archived: 1,
        notes: 1,
        skipped: 0,
        more: false,
      });
      const k = sessionKeys(ref);
      expect(await redis.exists(k.sys, k.win, k.sum, k.meta, k.arc, k.ids, k.notes, k.pad, k.lock)).toBe(0);
      expect(await redis.zscore(tenantSessionsKey(tenant), ref.sessionId)).toBeNull();
      expect(await redis.exists(userSessionsKey(tenant, "dave"))).toBe(0);
      expect(await redis.hget(ownersKey(tenant), ref.sessionId)).toBeNull();
      expect((await store.read(ref)).exists).toBe(false);
    });
  });

  describe("settings, lock, user index, sweep", () => {
    it("stores settings in meta in one round trip and refreshes the TTL the session will have", async () => {
      const ref = nextRef();
      await store.updateSettings(ref, { window: 1 }, TTL); // loads the script
      expect(await roundTrips(() => store.updateSettings(ref, { window: 20, maxTokens: 4000, keep: 6, ttlSeconds: 3600 }, TTL))).toBe(1);
      const snap = await store.read(ref);
      expect(snap.exists).toBe(true);
      expect(snap.settings).toEqual({ window: 20, maxTokens: 4000, keep: 6, ttlSeconds: 3600 });
      expect(await redis.ttl(sessionKeys(ref).meta)).toBeGreaterThan(3500);
      expect(await store.updateSettings(ref, { window: null, keep: null, ttlSeconds: null }, TTL)).toEqual({ maxTokens: 4000 });
      expect(await redis.ttl(sessionKeys(ref).meta)).toBeLessThanOrEqual(TTL);
    });

    it("lock is exclusive, expires and is released only by its holder", async () => {
      const ref = nextRef();
      expect(await store.acquireLock(ref, "one", 5000)).toBe(true);
      expect(await store.acquireLock(ref, "two", 5000)).toBe(false);
      const pttl = await redis.pttl(sessionKeys(ref).lock);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(5000);
      await store.releaseLock(ref, "two");
      expect(await store.acquireLock(ref, "two", 5000)).toBe(false);
      await store.releaseLock(ref, "one");
      expect(await store.acquireLock(ref, "two", 5000)).toBe(true);
    });

    it("lists a user's sessions, most recent first", async () => {
      const a = nextRef();
      const b = nextRef();
      await store.append(a, [msg("x", "user", "1")], { userId: "erin", ttlSeconds: TTL });
      clock += 10;
      await store.append(b, [msg("x", "user", "1")], { userId: "erin", ttlSeconds: TTL });
      clock += 10;
      await store.append(a, [msg("y", "user", "2")], { ttlSeconds: TTL }); // owner known: index refreshed
      const page = { offset: 0, limit: 10 };
      expect((await store.userSessions(tenant, "erin", page)).ids).toEqual([a.sessionId, b.sessionId]);
      expect((await store.userSessions(tenant, "nobody", page)).ids).toEqual([]);
      // members the client would JSON-parse into numbers or booleans come back as the same strings
      for (const sessionId of ["42", "1e3", "true", "007"]) {
        clock += 10;
        await store.append({ tenant, sessionId }, [msg("x", "user", "1")], { userId: "frank", ttlSeconds: TTL });
      }
      expect((await store.userSessions(tenant, "frank", page)).ids).toEqual(["007", "true", "1e3", "42"]);
    });

    it("never fails a script on a stored message it could not decode (metadata nested 1,500 deep)", async () => {
      const ref = nextRef();
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 1500; i++) deep = { d: deep };
      await store.append(ref, [msg("sys", "system", "rules"), { ...msg("a", "user", "deep"), metadata: deep }, msg("b", "user", "y")], {
        ttlSeconds: TTL,
      });
      // the commit reads the prefix ids and tokens without decoding the messages
      expect(await store.commitCompression(ref, commitFor(0, 0, ["a"]))).toEqual({ committed: true, removedTokens: 10 });
      // replacing the pinned prompt and a reset keeping it read the pinned ids the same way
      await store.append(ref, [{ ...msg("sys2", "system", "new rules"), metadata: deep }], { ttlSeconds: TTL, replaceSystem: true });
      await store.append(ref, [msg("sys3", "system", "newer")], { ttlSeconds: TTL, replaceSystem: true });
      expect((await store.read(ref)).system.map((m) => m.id)).toEqual(["sys3"]);
      expect(await store.reset(ref, { keepSystem: true })).toEqual({ removedMessages: 1, keptSystem: 1 });
    });
  });

  describe("working memory", () => {
    it("notes: set, get, delete, clear, with their own TTL", async () => {
      const ref = nextRef();
      await working.setNote(ref, "goal", "ship it", 50);
      await working.setNote(ref, "count", "42", 50);
      await working.setNote(ref, "list", "[1, 2]", 50);
      expect(await working.getNotes(ref)).toEqual({ goal: "ship it", count: "42", list: "[1, 2]" });
      expect(await working.getNote(ref, "count")).toBe("42");
      expect(await working.getNote(ref, "missing")).toBeNull();
      const ttl = await redis.ttl(sessionKeys(ref).notes);
      expect(ttl).toBeGreaterThan(40);
      expect(ttl).toBeLessThanOrEqual(50);
      expect(await working.deleteNote(ref, "goal")).toBe(true);
      expect(await working.deleteNote(ref, "goal")).toBe(false);
      expect(await working.clearNotes(ref)).toBe(2);
      expect(await working.getNotes(ref)).toEqual({});
    });

    it("scratchpad: append-only, capped to the newest entries, with its own TTL", async () => {
      const ref = nextRef();
      for (let i = 1; i <= 5; i++) expect(await working.appendScratch(ref, String(i), 70, 3)).toBe(Math.min(i, 3));
      expect(await working.getScratch(ref)).toEqual(["3", "4", "5"]);
      expect(await redis.ttl(sessionKeys(ref).pad)).toBeGreaterThan(60);
      expect(await working.clearScratch(ref)).toBe(3);
      expect(await working.getScratch(ref)).toEqual([]);
    });
  });

  describe("identifiers", () => {
    it("rejects invalid ids before anything is sent", async () => {
      const bad = ["", "a:b", "a*", "x y", "../x", "a'b", "é", "a".repeat(129)];
      for (const id of bad) {
        const trips = await roundTrips(async () => {
          await expect(store.read({ tenant, sessionId: id })).rejects.toBeInstanceOf(InvalidIdError);
          await expect(store.append({ tenant: id, sessionId: "ok" }, [msg("a", "user", "x")], { ttlSeconds: TTL })).rejects.toBeInstanceOf(
            InvalidIdError,
          );
          await expect(
            store.append({ tenant, sessionId: "ok" }, [msg("a", "user", "x")], { userId: id, ttlSeconds: TTL }),
          ).rejects.toBeInstanceOf(InvalidIdError);
          await expect(store.userSessions(tenant, id, { offset: 0, limit: 10 })).rejects.toBeInstanceOf(InvalidIdError);
        });
        expect(trips, id).toBe(0);
      }
    });
  });
});
