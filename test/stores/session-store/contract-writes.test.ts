import { describe, expect, it } from "vitest";
import { TURN_OUTCOMES_KEPT } from "../../../src/memory/ports/sessions.ts";
import type { Fact } from "../../../src/memory/model.ts";
import { calling, contractOn, fact, msg, now, outcome, result, variants } from "./contract-harness.ts";

/**
 * The session-store contract: the same cases run against the Redis adapter (on upstash-local's
 * embedded engine, and on a real Redis when one answers) and against the in-memory fake the unit
 * tests use, so the fake cannot drift from what production does.
 */
describe.each(variants)("session store contract: $name", ({ make }) => {
  const { h, TTL, nextTenant, nextRef } = contractOn(make);

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
    const turnStarted = now();
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
      createdAt: now(),
      updatedAt: now(),
      lastAccessedAt: now(),
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
});
