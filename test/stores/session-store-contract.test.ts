import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TURN_OUTCOMES_KEPT, type CompressionCommit, type SessionStore } from "../../src/memory/ports/sessions.ts";
import type { UserStore } from "../../src/memory/ports/facts.ts";
import type { Fact, Role, SessionRef, StoredMessage, ToolCall, TurnOutcome } from "../../src/memory/model.ts";
import { sessionKeys } from "../../src/stores/keys.ts";
import { RedisSessionStore } from "../../src/stores/session-store.ts";
import { RedisUserStore } from "../../src/stores/user-store.ts";
import { startUpstashLocal, type UpstashLocal } from "../../tools/upstash-local/index.ts";
import { InMemorySessionStore, InMemoryUserStore } from "../support/memory-fakes.ts";
import { deleteByPrefix, redisVariants } from "../emulator/redis/variants.ts";

/**
 * The session-store contract: the same cases run against the Redis adapter (on upstash-local's
 * embedded engine, and on a real Redis when one answers) and against the in-memory fake the unit
 * tests use, so the fake cannot drift from what production does.
 */
interface Harness {
  sessions: SessionStore;
  users: UserStore;
  /** Makes a session's keys disappear as an idle TTL would, leaving its index entries. */
  expire(ref: SessionRef): Promise<void>;
  close(): Promise<void>;
}

let clock = 1_800_000_000_000;
const now = () => clock;

async function redisHarness(redisUrl: string | undefined, tenantPrefix: string): Promise<Harness> {
  const local: UpstashLocal = await startUpstashLocal({ redisPort: 0, vectorPort: 0, ...(redisUrl ? { redisUrl } : {}) });
  const redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
  return {
    sessions: new RedisSessionStore(redis, { now, sweepLimit: 2 }),
    users: new RedisUserStore(redis),
    async expire(ref) {
      const k = sessionKeys(ref);
      await redis.del(k.sys, k.win, k.sum, k.meta, k.arc, k.ids, k.notes, k.pad, k.lock, k.turns);
    },
    async close() {
      await deleteByPrefix(redis, `am:${tenantPrefix}`);
      await local.close();
    },
  };
}

function fakeHarness(): Harness {
  const users = new InMemoryUserStore();
  const sessions = new InMemorySessionStore(now);
  sessions.users = users;
  return { sessions, users, expire: async (ref) => sessions.expire(ref), close: async () => undefined };
}

const run = `c${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const variants = [
  ...(await redisVariants()).map((v) => ({ name: `Redis store, ${v.name}`, make: () => redisHarness(v.redisUrl, run) })),
  { name: "in-memory fake", make: async () => fakeHarness() },
];

const msg = (id: string, role: Role, content: string, tokens = 10): StoredMessage => ({
  id,
  role,
  content,
  tokens,
  importance: 0.5,
  ts: clock,
});
const toolCall = (id: string): ToolCall => ({ id, type: "function", function: { name: "lookup", arguments: "{}" } });
const calling = (id: string, ...callIds: string[]): StoredMessage => ({ ...msg(id, "assistant", ""), tool_calls: callIds.map(toolCall) });
const result = (id: string, callId: string): StoredMessage => ({ ...msg(id, "tool", `result of ${callId}`), tool_call_id: callId });
const outcome = (id: string, content: string): TurnOutcome => ({ id, content, finishReason: "stop", model: "m" });

const fact = (id: string, text: string): Fact => ({
  id,
  text,
  type: "fact",
  importance: 0.5,
  createdAt: clock,
  updatedAt: clock,
  lastAccessedAt: clock,
  accessCount: 0,
  version: 1,
});

describe.each(variants)("session store contract: $name", ({ make }) => {
  let h: Harness;
  let seq = 0;
  let tenantSeq = 0;
  const TTL = 600;
  const nextTenant = () => `${run}t${++tenantSeq}`;
  const nextRef = (tenant: string): SessionRef => ({ tenant, sessionId: `s${++seq}` });
  const commit = (epoch: number, version: number, prefixIds: string[]): CompressionCommit => ({
    epoch,
    expectedVersion: version,
    prefixIds,
    summary: {
      text: `sum ${prefixIds.join(",")}`,
      tokens: 5,
      version: version + 1,
      covered: prefixIds.length,
      method: "llm",
      updatedAt: clock,
      lastRatio: 0.5,
    },
    archiveLimit: 10,
    ttlSeconds: TTL,
  });

  beforeAll(async () => {
    h = await make();
  });
  afterAll(async () => {
    await h.close();
  });

  it("appends idempotently on message ids and keeps system messages pinned apart", async () => {
    const ref = nextRef(nextTenant());
    const first = await h.sessions.append(ref, [msg("sys", "system", "rules", 2), msg("a", "user", "x", 3)], { ttlSeconds: TTL });
    expect(first.added.map((a) => a.duplicate)).toEqual([false, false]);
    const again = await h.sessions.append(ref, [msg("a", "user", "x", 3), msg("b", "assistant", "y", 4)], {
      ttlSeconds: TTL,
      withSnapshot: true,
    });
    expect(again.added.map((a) => a.duplicate)).toEqual([true, false]);
    expect(again.snapshot?.system.map((m) => m.id)).toEqual(["sys"]);
    expect(again.snapshot?.window.map((m) => m.id)).toEqual(["a", "b"]);
    expect(again.windowTokens).toBe(7);
  });

  it("rejects another owner before any write: no message and no queued fact", async () => {
    const tenant = nextTenant();
    const ref = nextRef(tenant);
    await h.sessions.append(ref, [msg("a", "user", "mine")], { userId: "alice", ttlSeconds: TTL });
    const before = await h.sessions.read(ref);
    await expect(
      h.sessions.append(ref, [msg("b", "user", "theirs")], { userId: "bob", ttlSeconds: TTL, facts: [fact("f1", "theirs")] }),
    ).rejects.toMatchObject({ kind: "conflict" });
    expect(await h.sessions.read(ref)).toEqual(before);
    expect(await h.users.pendingFacts({ tenant, userId: "bob" }, 10)).toEqual([]);
  });

  it("refuses an append guarded by unlessErasedSince once the owner was erased at or after that time", async () => {
    const tenant = nextTenant();
    const ref = nextRef(tenant);
    await h.sessions.append(ref, [msg("a", "user", "hello")], { userId: "alice", ttlSeconds: TTL });
    const turnStarted = clock;
    // Not erased yet: the guard lets it through.
    await h.sessions.append(ref, [msg("b", "assistant", "hi")], { userId: "alice", ttlSeconds: TTL, unlessErasedSince: turnStarted });
    await h.users.markErased({ tenant, userId: "alice" }, turnStarted + 5);
    const before = await h.sessions.read(ref);
    await expect(
      h.sessions.append(ref, [msg("c", "assistant", "late reply")], { userId: "alice", ttlSeconds: TTL, unlessErasedSince: turnStarted }),
    ).rejects.toMatchObject({ kind: "conflict" });
    expect(await h.sessions.read(ref)).toEqual(before);
    // A turn that started after the erase, or an unguarded write, is allowed.
    await h.sessions.append(ref, [msg("d", "user", "new start")], { userId: "alice", ttlSeconds: TTL, unlessErasedSince: turnStarted + 6 });
    expect((await h.sessions.read(ref)).window.map((m) => m.id)).toEqual(["a", "b", "d"]);
  });

  it("queues facts of the owner in the same step as the append", async () => {
    const tenant = nextTenant();
    const ref = nextRef(tenant);
    await h.sessions.append(ref, [msg("a", "user", "I like tea")], { userId: "carol", ttlSeconds: TTL, facts: [fact("f1", "I like tea")] });
    const scope = { tenant, userId: "carol" };
    const queued = await h.users.pendingFacts(scope, 10);
    expect(queued).toEqual([fact("f1", "I like tea")]);
    expect(await h.users.usersWithPendingFacts(tenant, 10)).toEqual(["carol"]);
    expect(await h.users.confirmFacts(scope, queued)).toEqual({ erasedAt: null });
    expect(await h.users.pendingFacts(scope, 10)).toEqual([]);
    expect(await h.users.usersWithPendingFacts(tenant, 10)).toEqual([]);
  });

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
    clock += 1;
    await h.sessions.append(reused, [msg("a", "user", "x's words")], { userId: "x", ttlSeconds: TTL });
    clock += 1;
    await h.sessions.append(xOnly, [msg("a", "user", "x again")], { userId: "x", ttlSeconds: TTL });
    // x's first session expires; y starts a new session under the same id
    await h.expire(reused);
    clock += 1;
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
      clock += 1;
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

  it("stores nothing of a batch whose retry tag the last stored batch had; a write that stores something in between clears the tag", async () => {
    const ref = nextRef(nextTenant());
    const tag = "0123456789abcdef0123456789abcdef";
    const first = await h.sessions.append(ref, [msg("sys", "system", "Be brief."), msg("u1", "user", "book it")], {
      ttlSeconds: TTL,
      retryTag: tag,
    });
    expect(first.added.map((a) => a.duplicate)).toEqual([false, false]);
    // The client's retry: new ids, the same request - nothing stored, nothing queued.
    const fact: Fact = {
      id: "f000000000000000000000001",
      text: "book it",
      type: "fact",
      importance: 0.5,
      createdAt: clock,
      updatedAt: clock,
      lastAccessedAt: clock,
      accessCount: 0,
      version: 1,
    };
    const retry = await h.sessions.append(ref, [msg("u1-retry", "user", "book it")], {
      ttlSeconds: TTL,
      userId: "rita",
      retryTag: tag,
      facts: [fact],
      withSnapshot: true,
    });
    expect(retry.added.map((a) => a.duplicate)).toEqual([true]);
    expect(retry.snapshot?.window.map((m) => m.id)).toEqual(["u1"]);
    expect(await h.users.pendingFacts({ tenant: ref.tenant, userId: "rita" }, 10)).toEqual([]);
    // The reply clears it: the same request again is a new turn.
    await h.sessions.append(ref, [msg("u1.reply", "assistant", "booked")], { ttlSeconds: TTL });
    const again = await h.sessions.append(ref, [msg("u2", "user", "book it")], { ttlSeconds: TTL, retryTag: tag });
    expect(again.added.map((a) => a.duplicate)).toEqual([false]);
    expect((await h.sessions.read(ref)).window.map((m) => m.id)).toEqual(["u1", "u1.reply", "u2"]);
  });

  it("records a turn's outcome once per key and answers a retry with it without storing anything", async () => {
    const ref = nextRef(nextTenant());
    const start = await h.sessions.append(ref, [msg("u1", "user", "hi")], { ttlSeconds: TTL, turn: { key: "k1" } });
    expect(start.outcome).toBeNull();
    const reply = await h.sessions.append(ref, [msg("u1.reply", "assistant", "hello")], {
      ttlSeconds: TTL,
      turn: { key: "k1", outcome: outcome("u1.reply", "hello") },
    });
    expect(reply.added.map((a) => a.duplicate)).toEqual([false]);
    expect(reply.outcome).toEqual(outcome("u1.reply", "hello"));

    // The retry: the outcome comes back, and even a message with a new id is not stored.
    const retry = await h.sessions.append(ref, [msg("u1-again", "user", "hi")], {
      ttlSeconds: TTL,
      withSnapshot: true,
      turn: { key: "k1" },
    });
    expect(retry.outcome).toEqual(outcome("u1.reply", "hello"));
    expect(retry.added.map((a) => a.duplicate)).toEqual([true]);
    expect(retry.snapshot?.window.map((m) => m.id)).toEqual(["u1", "u1.reply"]);
    // A second reply for the key (a concurrent duplicate) is not stored; the first one wins.
    const late = await h.sessions.append(ref, [msg("other", "assistant", "late")], {
      ttlSeconds: TTL,
      turn: { key: "k1", outcome: outcome("other", "late") },
    });
    expect(late.outcome).toEqual(outcome("u1.reply", "hello"));
    expect((await h.sessions.read(ref)).window.map((m) => m.id)).toEqual(["u1", "u1.reply"]);
    // Without a turn key nothing is looked up.
    expect((await h.sessions.append(ref, [msg("u2", "user", "hi")], { ttlSeconds: TTL })).outcome).toBeUndefined();
    // Outcomes are exported and go with a reset.
    const owned = nextRef(ref.tenant);
    await h.sessions.append(owned, [msg("q", "user", "?")], {
      ttlSeconds: TTL,
      userId: "olga",
      turn: { key: "k9", outcome: outcome("q.reply", "!") },
    });
    expect((await h.sessions.exportSessions(ref.tenant, "olga", { offset: 0, limit: 10 })).sessions[0]?.turns).toEqual([
      outcome("q.reply", "!"),
    ]);
    await h.sessions.reset(ref, { keepSystem: false });
    expect((await h.sessions.append(ref, [msg("u3", "user", "hi")], { ttlSeconds: TTL, turn: { key: "k1" } })).outcome).toBeNull();
  });

  it(`keeps the newest ${TURN_OUTCOMES_KEPT} turn outcomes of a session`, async () => {
    const ref = nextRef(nextTenant());
    for (let i = 0; i <= TURN_OUTCOMES_KEPT; i++) {
      await h.sessions.append(ref, [msg(`r${i}`, "assistant", `reply ${i}`, 1)], {
        ttlSeconds: TTL,
        turn: { key: `key${i}`, outcome: outcome(`r${i}`, `reply ${i}`) },
      });
    }
    expect((await h.sessions.append(ref, [msg("x0", "user", "?")], { ttlSeconds: TTL, turn: { key: "key0" } })).outcome).toBeNull();
    const newest = await h.sessions.append(ref, [msg("x1", "user", "?")], { ttlSeconds: TTL, turn: { key: `key${TURN_OUTCOMES_KEPT}` } });
    expect(newest.outcome?.content).toBe(`reply ${TURN_OUTCOMES_KEPT}`);
  });

  it("stores a tool result only right after the call it answers, across appends; an orphan changes nothing", async () => {
    const ref = nextRef(nextTenant());
    await expect(h.sessions.append(ref, [result("t0", "c0")], { ttlSeconds: TTL })).rejects.toMatchObject({ kind: "invalid" });
    expect((await h.sessions.read(ref)).exists).toBe(false);

    await h.sessions.append(ref, [msg("u", "user", "go"), calling("a1", "c1", "c2")], { ttlSeconds: TTL });
    await h.sessions.append(ref, [result("t2", "c2")], { ttlSeconds: TTL });
    // Echoing the stored call with its second result (the proxy's follow-up) stores only the result.
    const echo = await h.sessions.append(ref, [calling("a1", "c1", "c2"), result("t1", "c1")], { ttlSeconds: TTL });
    expect(echo.added.map((a) => a.duplicate)).toEqual([true, false]);
    const before = await h.sessions.read(ref);
    await expect(h.sessions.append(ref, [msg("ok", "user", "fine"), result("t3", "c9")], { ttlSeconds: TTL })).rejects.toMatchObject({
      kind: "invalid",
    });
    await expect(h.sessions.append(ref, [result("t4", "c9")], { ttlSeconds: TTL })).rejects.toMatchObject({ kind: "invalid" });
    expect(await h.sessions.read(ref)).toEqual(before);
    // Another message closes the calls.
    await h.sessions.append(ref, [msg("a2", "assistant", "done")], { ttlSeconds: TTL });
    await expect(h.sessions.append(ref, [result("t5", "c1")], { ttlSeconds: TTL })).rejects.toMatchObject({ kind: "invalid" });
    expect((await h.sessions.read(ref)).window.map((m) => m.id)).toEqual(["u", "a1", "t2", "t1", "a2"]);
  });

  it("lists a user's sessions with created and last-write times, message count and the first title", async () => {
    const tenant = nextTenant();
    const a = nextRef(tenant);
    const b = nextRef(tenant);
    clock += 1;
    await h.sessions.append(a, [msg("s", "system", "sys"), msg("u", "user", "first")], { userId: "lena", ttlSeconds: TTL, title: "first" });
    clock += 1;
    await h.sessions.append(b, [msg("u", "user", "other")], { userId: "lena", ttlSeconds: TTL });
    clock += 1;
    await h.sessions.append(a, [msg("v", "user", "second")], { userId: "lena", ttlSeconds: TTL, title: "second" });
    await h.sessions.commitCompression(a, commit(0, 0, ["u"]));
    const page = await h.sessions.userSessions(tenant, "lena", { offset: 0, limit: 10 });
    expect(page.sessions).toEqual([
      { sessionId: a.sessionId, createdAt: clock - 2, updatedAt: clock, messages: 2, title: "first" },
      { sessionId: b.sessionId, createdAt: clock - 1, updatedAt: clock - 1, messages: 1, title: null },
    ]);
    expect(page.ids).toEqual([a.sessionId, b.sessionId]);
  });

  it("records erases and recall counts per user without losing concurrent increments", async () => {
    const tenant = nextTenant();
    const scope = { tenant, userId: "r" };
    await Promise.all(Array.from({ length: 10 }, (_, i) => h.users.recordRecalls(scope, ["f1", ...(i % 2 ? ["f2"] : [])], clock + i)));
    const counts = (await h.users.recallCounts(scope, 10)).sort((a, b) => a.id.localeCompare(b.id));
    expect(counts).toEqual([
      { id: "f1", count: 10, lastAccessedAt: clock + 9 },
      { id: "f2", count: 5, lastAccessedAt: clock + 9 },
    ]);
    await h.users.recordRecalls(scope, ["f1"], clock + 20); // counted after the read: survives the settle
    await h.users.settleRecalls(scope, counts);
    expect(await h.users.recallCounts(scope, 10)).toEqual([{ id: "f1", count: 1, lastAccessedAt: clock + 20 }]);

    expect(await h.users.erasedAt(scope)).toBeNull();
    await h.users.markErased(scope, clock);
    expect(await h.users.erasedAt(scope)).toBe(clock);
    expect(await h.users.recallCounts(scope, 10)).toEqual([]);
  });
});
