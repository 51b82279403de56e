import { describe, expect, it } from "vitest";
import type { SessionRef } from "../../../src/memory/model.ts";
import { sessionKeys } from "../../../src/stores/keys.ts";
import { ScriptRunner } from "../../../src/stores/scripts.ts";
import type { RedisSessionStore } from "../../../src/stores/session-store.ts";
import { BACKENDS, sessionStoresOn, tenant, TTL } from "./fixture.ts";

describe.each(BACKENDS)("session stores on upstash-local (%s)", (_name, redisUrl) => {
  const s = sessionStoresOn(redisUrl);
  const { nextRef, msg, roundTrips, commitFor } = s;

  describe("read", () => {
    it("costs one round trip and reports a missing session as not existing", async () => {
      const ref = nextRef();
      await s.store.read(ref); // loads the script
      let snap: Awaited<ReturnType<RedisSessionStore["read"]>> | undefined;
      expect(await roundTrips(async () => (snap = await s.store.read(ref)))).toBe(1);
      expect(snap).toEqual({ exists: false, system: [], window: [], windowTokens: 0, summary: null, meta: null, settings: {} });
    });

    it("costs one round trip for append and commit in steady state", async () => {
      const ref = nextRef();
      await s.store.append(ref, [msg("a", "user", "x")], { ttlSeconds: TTL });
      expect(await roundTrips(() => s.store.append(ref, [msg("b", "user", "y"), msg("c", "user", "z")], { ttlSeconds: TTL }))).toBe(1);
      await s.store.commitCompression(ref, commitFor(0, 0, ["a"]));
      expect(await roundTrips(() => s.store.commitCompression(ref, commitFor(0, 1, ["b"])))).toBe(1);
      // the steady-state request is an EVALSHA, not the script source
      expect(s.local.redis.log[0]?.body.toLowerCase()).toContain("evalsha");
    });
  });

  describe("scripts", () => {
    it("fall back to EVAL once when Redis does not know the script, then use EVALSHA", async () => {
      // a source no Redis has seen before, so the first EVALSHA must answer NOSCRIPT
      const source = `-- ${tenant} ${Math.random()}\nreturn cjson.encode({ echo = ARGV[1] })`;
      const runner = new ScriptRunner(s.redis);
      let first: unknown;
      expect(await roundTrips(async () => (first = await runner.run(source, [], ["123"])))).toBe(2);
      expect(first).toEqual({ echo: "123" });
      expect(s.local.redis.log.map((e) => e.body.toLowerCase().includes("evalsha"))).toEqual([true, false]);
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
      await s.store.append(ref, msgs, { ttlSeconds: TTL });
      return ref;
    }

    it("removes exactly the summarized prefix and keeps messages appended meanwhile", async () => {
      const ref = await seeded(4);
      const snap = await s.store.read(ref);
      // a message arrives while the summarizer runs
      await s.store.append(ref, [msg("late", "user", "arrived during the LLM call", 9)], { ttlSeconds: TTL });
      const outcome = await s.store.commitCompression(ref, commitFor(snap.meta?.epoch ?? -1, 0, ["m0", "m1", "m2"]));
      expect(outcome).toEqual({ committed: true, removedTokens: 10 + 11 + 12 });
      const after = await s.store.read(ref);
      expect(after.window.map((m) => m.id)).toEqual(["m3", "late"]);
      expect(after.windowTokens).toBe(13 + 9);
      expect(after.system.map((m) => m.id)).toEqual(["sys"]);
      expect(after.summary).toEqual({
        text: "summary of m0,m1,m2",
        tokens: 7,
        version: 1,
        covered: 3,
        method: "llm",
        updatedAt: s.clock,
        lastRatio: 0.25,
      });
      const history = await s.store.history(ref, { offset: 0, limit: 10 });
      expect(history.archived.map((m) => m.id)).toEqual(["m0", "m1", "m2"]);
      expect(history.total).toBe(3);
      expect(history.summary).toEqual(after.summary);
    });

    it("aborts when the window prefix changed", async () => {
      const ref = await seeded(3);
      const before = await s.store.read(ref);
      expect(await s.store.commitCompression(ref, commitFor(0, 0, ["m1", "m0"]))).toEqual({ committed: false, reason: "prefix_changed" });
      expect(await s.store.commitCompression(ref, commitFor(0, 0, ["m0", "m1", "m2", "m3"]))).toEqual({
        committed: false,
        reason: "prefix_changed",
      });
      expect(await s.store.read(ref)).toEqual(before);
    });

    it("aborts when another compression committed first", async () => {
      const ref = await seeded(4);
      expect((await s.store.commitCompression(ref, commitFor(0, 0, ["m0"]))).committed).toBe(true);
      const before = await s.store.read(ref);
      // a second worker read version 0 as well
      expect(await s.store.commitCompression(ref, commitFor(0, 0, ["m1"]))).toEqual({ committed: false, reason: "version_changed" });
      expect(await s.store.read(ref)).toEqual(before);
    });

    it("aborts after a reset in between, even when the same ids were re-sent", async () => {
      const ref = await seeded(2);
      const snap = await s.store.read(ref);
      await s.store.reset(ref, { keepSystem: true });
      await s.store.append(ref, [msg("m0", "user", "text 0", 10), msg("m1", "assistant", "text 1", 11)], { ttlSeconds: TTL });
      const before = await s.store.read(ref);
      expect(before.meta?.epoch).toBe(1);
      expect(await s.store.commitCompression(ref, commitFor(snap.meta?.epoch ?? 0, 0, ["m0"]))).toEqual({
        committed: false,
        reason: "reset",
      });
      expect(await s.store.read(ref)).toEqual(before);
    });

    it("reports a missing session", async () => {
      expect(await s.store.commitCompression(nextRef(), commitFor(0, 0, ["x"]))).toEqual({ committed: false, reason: "missing" });
    });

    it("keeps only the newest archiveLimit originals, and none with 0", async () => {
      const ref = await seeded(6);
      await s.store.commitCompression(ref, commitFor(0, 0, ["m0", "m1"], { archiveLimit: 3 }));
      await s.store.commitCompression(ref, commitFor(0, 1, ["m2", "m3"], { archiveLimit: 3 }));
      const page = await s.store.history(ref, { offset: 0, limit: 10 });
      expect(page.archived.map((m) => m.id)).toEqual(["m1", "m2", "m3"]);
      expect(page.total).toBe(3);
      const second = await s.store.history(ref, { offset: 1, limit: 1 });
      expect(second.archived.map((m) => m.id)).toEqual(["m2"]);
      expect(second.total).toBe(3);
      await s.store.commitCompression(ref, commitFor(0, 2, ["m4"], { archiveLimit: 0 }));
      expect((await s.store.history(ref, { offset: 0, limit: 10 })).total).toBe(0);
      expect(await s.redis.exists(sessionKeys(ref).arc)).toBe(0);
    });
  });
});
