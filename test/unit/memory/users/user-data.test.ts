import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import { HeuristicFactExtractor } from "../../../../src/llm/heuristic-extractor.ts";
import { createFact } from "../../../../src/memory/facts/identity.ts";
import { deliverPendingFacts, learnFromMessages } from "../../../../src/memory/facts/learning.ts";
import type { FactExtractor, TokenCounter } from "../../../../src/memory/ports/llm.ts";
import type { StoredMessage } from "../../../../src/memory/model.ts";
import {
  ERASE_CALLS_PER_REQUEST,
  ERASE_SESSIONS_PER_CALL,
  EXPORT_SESSIONS_PER_PAGE,
  eraseUser,
  exportUser,
} from "../../../../src/memory/users/user-data.ts";
import { testDeps, type TestDeps } from "../../../support/memory-deps.ts";
import { InMemoryFactStore, InMemoryUserStore } from "../../../support/fakes/facts.ts";
import type { InMemoryEraseJournal } from "../../../support/fakes/operations.ts";
import { InMemorySessionStore } from "../../../support/fakes/sessions.ts";

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

let clock = Date.UTC(2026, 5, 1);
let deps: TestDeps;
let sessions: InMemorySessionStore;
let users: InMemoryUserStore;
let facts: InMemoryFactStore;
const scope = { tenant: "acme", userId: "u1" };
const msg = (id: string, content: string): StoredMessage => ({ id, role: "user", content, tokens: 5, importance: 0.5, ts: clock });

beforeEach(() => {
  clock += 60_000;
  sessions = new InMemorySessionStore(() => clock);
  users = new InMemoryUserStore();
  sessions.users = users;
  facts = new InMemoryFactStore();
  deps = testDeps({ counter, sessions, users, facts, now: () => clock, extractor: new HeuristicFactExtractor() });
});

async function sessionsOf(userId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    clock += 1;
    await sessions.append({ tenant: "acme", sessionId: `${userId}-s${i}` }, [msg("m", `hello ${i}`)], { userId, ttlSeconds: 60 });
  }
}

describe("export", () => {
  it("pages through the user's sessions, then the facts, with a cursor that resumes", async () => {
    await sessionsOf("u1", 25);
    await facts.upsert(scope, [createFact("f1", { text: "likes tea", type: "preference", importance: 0.5 }, clock)]);
    const pages = [];
    let cursor: string | undefined;
    do {
      const page = await exportUser(deps, "u1", cursor);
      pages.push(page);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined && pages.length < 10);
    expect(pages.map((p) => p.sessions.length)).toEqual([EXPORT_SESSIONS_PER_PAGE, EXPORT_SESSIONS_PER_PAGE, 5]);
    expect(pages.at(-1)?.facts.map((f) => f.id)).toEqual(["f1"]);
    expect(new Set(pages.flatMap((p) => p.sessions.map((s) => s.sessionId))).size).toBe(25);
    // each page cost at most one session-store call and one fact-store call
    expect(sessions.calls.exportSessions).toBe(3);
    expect(facts.calls.list).toBe(1);
  });

  it("rejects a cursor it did not hand out", async () => {
    await expect(exportUser(deps, "u1", "s1;DROP")).rejects.toMatchObject({ kind: "invalid" });
  });
});

describe("erase", () => {
  it("is bounded per request and resumable, and says when it is done", async () => {
    const perRequest = ERASE_SESSIONS_PER_CALL * ERASE_CALLS_PER_REQUEST;
    await sessionsOf("u1", perRequest + 7);
    const first = await eraseUser(deps, "u1");
    expect(first).toMatchObject({ done: false, removed: { sessions: perRequest } });
    expect(sessions.calls.eraseUserSessions).toBe(ERASE_CALLS_PER_REQUEST);
    const second = await eraseUser(deps, "u1");
    // One erase, one receipt: the counts cover both requests, `deleted` this one (7 sessions, 7 messages).
    expect(second).toMatchObject({
      done: true,
      receiptId: first.receiptId,
      deleted: 14,
      removed: { sessions: perRequest + 7, messages: perRequest + 7 },
    });
    expect(sessions.indexed("acme", "u1")).toEqual([]);
    await deps.settle();
    const audit = await deps.audit.list("acme", { since: 0, limit: 10 });
    expect(audit.filter((e) => e.action === "user.erase")).toEqual([
      expect.objectContaining({
        target: { userId: "u1" },
        details: expect.objectContaining({ receiptId: first.receiptId, sessions: perRequest + 7 }),
      }),
    ]);
    // Erasing again finds nothing: it answers the finished erase's receipt (a retry whose answer was lost), no new audit entry.
    const again = await eraseUser(deps, "u1");
    expect(again).toMatchObject({
      done: true,
      deleted: 0,
      receiptId: first.receiptId,
      removed: { sessions: perRequest + 7, messages: perRequest + 7 },
    });
    await deps.settle();
    expect((await deps.audit.list("acme", { since: 0, limit: 10 })).filter((e) => e.action === "user.erase")).toHaveLength(1);
    // Once the user has data again, an erase is a new one with its own receipt.
    await sessionsOf("u1", 1);
    const later = await eraseUser(deps, "u1");
    expect(later).toMatchObject({ done: true, deleted: 2, removed: { sessions: 1, messages: 1 } });
    expect(later.receiptId).not.toBe(first.receiptId);
  });

  it("a fault between steps loses no count: the retry's receipt has the true totals, recorded once", async () => {
    await sessionsOf("u1", 2);
    await facts.upsert(scope, [
      createFact("f1", { text: "likes tea", type: "preference", importance: 0.5 }, clock),
      createFact("f2", { text: "has a cat", type: "fact", importance: 0.5 }, clock),
    ]);
    const journal = deps.eraseJournal as InMemoryEraseJournal;
    // The facts are gone, then Redis fails before the step that counts them.
    journal.failNext("settle");
    await expect(eraseUser(deps, "u1")).rejects.toThrow("settle failed");
    // The sessions are gone, then Redis fails before the request ends.
    journal.failNext("finish");
    await expect(eraseUser(deps, "u1")).rejects.toThrow("finish failed");
    const done = await eraseUser(deps, "u1");
    expect(done).toMatchObject({ done: true, removed: { sessions: 2, messages: 2, facts: 2 } });
    await deps.settle();
    const receipts = (await deps.audit.list("acme", { since: 0, limit: 10 })).filter((e) => e.action === "user.erase");
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.details).toMatchObject({ receiptId: done.receiptId, sessions: 2, facts: 2 });
  });

  it("parallel erases end with one receipt, its true totals in every answer, and one audit entry", async () => {
    await sessionsOf("u1", 3);
    await facts.upsert(scope, [createFact("f1", { text: "likes tea", type: "preference", importance: 0.5 }, clock)]);
    const answers = await Promise.all(Array.from({ length: 10 }, () => eraseUser(deps, "u1")));
    const final = answers.filter((a) => a.done);
    expect(final.length).toBeGreaterThan(0);
    for (const a of final) expect(a).toMatchObject({ receiptId: answers[0]!.receiptId, removed: { sessions: 3, messages: 3, facts: 1 } });
    await deps.settle();
    expect((await deps.audit.list("acme", { since: 0, limit: 50 })).filter((e) => e.action === "user.erase")).toHaveLength(1);
  });

  it("leaves a tombstone first and deletes the facts before any session, so Vector down changes no session", async () => {
    await sessionsOf("u1", 2);
    facts.failNext("deleteAll", new Error("vector down"));
    await expect(eraseUser(deps, "u1")).rejects.toThrow("vector down");
    expect(await users.erasedAt(scope)).toBe(clock);
    expect(sessions.calls.eraseUserSessions).toBeUndefined();
    expect(sessions.indexed("acme", "u1")).toHaveLength(2);
  });
});

describe("work scheduled before an erase", () => {
  it("learning scheduled before the erase does nothing", async () => {
    const scheduledAt = clock;
    clock += 1;
    await users.markErased(scope, clock);
    expect(await learnFromMessages(deps, { scope, sessionId: "s", messages: [msg("m1", "记住，我对花生过敏")], scheduledAt })).toBeNull();
    expect(facts.all(scope)).toEqual([]);
  });

  it("facts learned while an erase runs are deleted again", async () => {
    const scheduledAt = clock;
    const erasing: FactExtractor = {
      async extract(request) {
        clock += 1;
        await users.markErased(scope, clock); // the erase lands while the extractor thinks
        return new HeuristicFactExtractor().extract(request);
      },
    };
    const report = await learnFromMessages(
      { ...deps, extractor: erasing },
      { scope, sessionId: "s", messages: [msg("m1", "记住，我对花生过敏")], scheduledAt },
    );
    expect(report).toBeNull();
    expect(facts.all(scope)).toEqual([]);
  });

  it("queued facts delivered while an erase runs are deleted again; later explicit work is allowed", async () => {
    const fact = createFact("f1", { text: "I live in Lisbon", type: "fact", importance: 0.5 }, clock);
    users.queue(scope, [fact]);
    const startedAt = clock;
    const realConfirm = users.confirmFacts.bind(users);
    users.confirmFacts = async (s, delivered) => {
      clock += 1;
      await users.markErased(s, clock); // the erase lands between the upsert and the confirmation
      return realConfirm(s, delivered);
    };
    expect(await deliverPendingFacts({ facts, users }, scope, startedAt)).toBe(0);
    expect(facts.all(scope)).toEqual([]);

    users.confirmFacts = realConfirm;
    clock += 1;
    users.queue(scope, [fact]);
    expect(await deliverPendingFacts({ facts, users }, scope, clock)).toBe(1);
    expect(facts.all(scope).map((f) => f.id)).toEqual(["f1"]);
  });
});
