import { describe, expect, it } from "vitest";
import { contractOn, msg, now, tick, variants } from "./contract-harness.ts";

/**
 * The session-store contract: the same cases run against the Redis adapter (on upstash-local's
 * embedded engine, and on a real Redis when one answers) and against the in-memory fake the unit
 * tests use, so the fake cannot drift from what production does.
 */
describe.each(variants)("session store contract: $name", ({ make }) => {
  const { h, TTL, nextTenant, nextRef, commit } = contractOn(make);

  it("merges settings: a change names fields, null restores the default, others keep theirs", async () => {
    const ref = nextRef(nextTenant());
    expect(await h.sessions.updateSettings(ref, { window: 20, keep: 6 }, TTL)).toEqual({ window: 20, keep: 6 });
    expect(await h.sessions.updateSettings(ref, { maxTokens: 3000 }, TTL)).toEqual({ window: 20, keep: 6, maxTokens: 3000 });
    expect(await h.sessions.updateSettings(ref, { keep: null }, TTL)).toEqual({ window: 20, maxTokens: 3000 });
    // two concurrent changes of different fields both survive
    await Promise.all([h.sessions.updateSettings(ref, { window: 5 }, TTL), h.sessions.updateSettings(ref, { ttlSeconds: 900 }, TTL)]);
    expect((await h.sessions.read(ref)).settings).toEqual({ window: 5, maxTokens: 3000, ttlSeconds: 900 });
  });

  it("commits a compression only over the prefix, version and epoch it read", async () => {
    const ref = nextRef(nextTenant());
    await h.sessions.append(ref, [msg("m0", "user", "a"), msg("m1", "assistant", "b"), msg("m2", "user", "c")], { ttlSeconds: TTL });
    expect(await h.sessions.commitCompression(ref, commit(0, 0, ["m1"]))).toEqual({ committed: false, reason: "prefix_changed" });
    expect(await h.sessions.commitCompression(ref, commit(0, 0, ["m0"]))).toEqual({ committed: true, removedTokens: 10 });
    expect(await h.sessions.commitCompression(ref, commit(0, 0, ["m1"]))).toEqual({ committed: false, reason: "version_changed" });
    await h.sessions.reset(ref, { keepSystem: true });
    expect(await h.sessions.commitCompression(ref, commit(0, 1, []))).toEqual({ committed: false, reason: "reset" });
    expect(await h.sessions.commitCompression(nextRef(nextTenant()), commit(0, 0, ["x"]))).toEqual({ committed: false, reason: "missing" });
  });

  it("counts consecutive summarizer failures until a compression commits", async () => {
    const ref = nextRef(nextTenant());
    expect(await h.sessions.recordSummaryFailure(ref)).toBe(0); // no session, nothing counted
    await h.sessions.append(ref, [msg("m0", "user", "a"), msg("m1", "user", "b")], { ttlSeconds: TTL });
    expect(await h.sessions.recordSummaryFailure(ref)).toBe(1);
    expect(await h.sessions.recordSummaryFailure(ref)).toBe(2);
    expect((await h.sessions.read(ref)).meta?.summaryFailures).toBe(2);
    await h.sessions.commitCompression(ref, commit(0, 0, ["m0"]));
    expect((await h.sessions.read(ref)).meta?.summaryFailures).toBe(0);
  });

  it("lists, exports and erases only the sessions a user owns, even under a reused session id", async () => {
    const tenant = nextTenant();
    const reused = nextRef(tenant);
    const xOnly = nextRef(tenant);
    tick();
    await h.sessions.append(reused, [msg("a", "user", "x's words")], { userId: "x", ttlSeconds: TTL });
    tick();
    await h.sessions.append(xOnly, [msg("a", "user", "x again")], { userId: "x", ttlSeconds: TTL });
    // x's first session expires; y starts a new session under the same id
    await h.expire(reused);
    tick();
    await h.sessions.append(reused, [msg("b", "user", "y's words")], { userId: "y", ttlSeconds: TTL });

    expect((await h.sessions.userSessions(tenant, "x", { offset: 0, limit: 10 })).ids).toEqual([xOnly.sessionId]);
    expect((await h.sessions.userSessions(tenant, "y", { offset: 0, limit: 10 })).ids).toEqual([reused.sessionId]);
    const exported = await h.sessions.exportSessions(tenant, "x", { offset: 0, limit: 10 });
    expect(exported.sessions.map((s) => s.sessionId)).toEqual([xOnly.sessionId]);
    expect(exported.sessions[0]?.snapshot.window.map((m) => m.content)).toEqual(["x again"]);
    expect(exported.next).toBeNull();

    const erased = await h.sessions.eraseUserSessions(tenant, "x", 10);
    expect(erased).toMatchObject({ sessions: 1, messages: 1, more: false });
    expect((await h.sessions.read(xOnly)).exists).toBe(false);
    // y's session under the reused id is untouched
    expect((await h.sessions.read(reused)).window.map((m) => m.content)).toEqual(["y's words"]);
    expect((await h.sessions.userSessions(tenant, "x", { offset: 0, limit: 10 })).ids).toEqual([]);
  });

  it("erases in bounded batches and says when more is left", async () => {
    const tenant = nextTenant();
    for (let i = 0; i < 3; i++) await h.sessions.append(nextRef(tenant), [msg("a", "user", `n${i}`)], { userId: "z", ttlSeconds: TTL });
    expect(await h.sessions.eraseUserSessions(tenant, "z", 2)).toMatchObject({ sessions: 2, more: true });
    expect(await h.sessions.eraseUserSessions(tenant, "z", 2)).toMatchObject({ sessions: 1, more: false });
  });

  it("sweeps expired sessions out of the tenant index and their owner's index", async () => {
    const tenant = nextTenant();
    const refs = [nextRef(tenant), nextRef(tenant), nextRef(tenant)];
    for (const ref of refs) {
      tick();
      await h.sessions.append(ref, [msg("a", "user", "hi")], { userId: "w", ttlSeconds: TTL });
    }
    await h.expire(refs[1]!);
    const removed: string[] = [];
    let cursor = "";
    for (let pages = 0; pages < 10; pages++) {
      const page = await h.sessions.sweepIndexes(tenant, cursor);
      removed.push(...page.removed);
      cursor = page.nextCursor;
      if (cursor === "") break;
    }
    expect(removed).toEqual([refs[1]!.sessionId]);
    const listed = await h.sessions.userSessions(tenant, "w", { offset: 0, limit: 10 });
    expect(listed.ids.sort()).toEqual([refs[0]!.sessionId, refs[2]!.sessionId].sort());
  });

  it("lists a user's sessions with created and last-write times, message count and the first title", async () => {
    const tenant = nextTenant();
    const a = nextRef(tenant);
    const b = nextRef(tenant);
    tick();
    await h.sessions.append(a, [msg("s", "system", "sys"), msg("u", "user", "first")], { userId: "lena", ttlSeconds: TTL, title: "first" });
    tick();
    await h.sessions.append(b, [msg("u", "user", "other")], { userId: "lena", ttlSeconds: TTL });
    tick();
    await h.sessions.append(a, [msg("v", "user", "second")], { userId: "lena", ttlSeconds: TTL, title: "second" });
    await h.sessions.commitCompression(a, commit(0, 0, ["u"]));
    const page = await h.sessions.userSessions(tenant, "lena", { offset: 0, limit: 10 });
    expect(page.sessions).toEqual([
      { sessionId: a.sessionId, createdAt: now() - 2, updatedAt: now(), messages: 2, title: "first" },
      { sessionId: b.sessionId, createdAt: now() - 1, updatedAt: now() - 1, messages: 1, title: null },
    ]);
    expect(page.ids).toEqual([a.sessionId, b.sessionId]);
  });

  it("records erases and recall counts per user without losing concurrent increments", async () => {
    const tenant = nextTenant();
    const scope = { tenant, userId: "r" };
    await Promise.all(Array.from({ length: 10 }, (_, i) => h.users.recordRecalls(scope, ["f1", ...(i % 2 ? ["f2"] : [])], now() + i)));
    const counts = (await h.users.recallCounts(scope, 10)).sort((a, b) => a.id.localeCompare(b.id));
    expect(counts).toEqual([
      { id: "f1", count: 10, lastAccessedAt: now() + 9 },
      { id: "f2", count: 5, lastAccessedAt: now() + 9 },
    ]);
    await h.users.recordRecalls(scope, ["f1"], now() + 20); // counted after the read: survives the settle
    await h.users.settleRecalls(scope, counts);
    expect(await h.users.recallCounts(scope, 10)).toEqual([{ id: "f1", count: 1, lastAccessedAt: now() + 20 }]);

    expect(await h.users.erasedAt(scope)).toBeNull();
    await h.users.markErased(scope, now());
    expect(await h.users.erasedAt(scope)).toBe(now());
    expect(await h.users.recallCounts(scope, 10)).toEqual([]);
  });
});
