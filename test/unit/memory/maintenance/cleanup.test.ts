import { beforeEach, describe, expect, it } from "vitest";
import type { Fact, FactType } from "../../../../src/memory/model.ts";
import { CLEANUP_LEASE_MS, runCleanup, type CleanupCursor, type CleanupDeps } from "../../../../src/memory/maintenance/cleanup.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import { InMemoryRunLock } from "../../../support/fakes/maintenance.ts";
import { InMemoryFactStore, InMemoryUserStore } from "../../../support/fakes/facts.ts";
import { storedMessage } from "../../../support/fakes/messages.ts";
import { InMemorySessionStore } from "../../../support/fakes/sessions.ts";

const DAY = 86_400_000;
const now = Date.UTC(2026, 5, 1);
const ada = { tenant: "acme", userId: "ada" };
const bob = { tenant: "acme", userId: "bob" };

let sessions: InMemorySessionStore;
let users: InMemoryUserStore;
let facts: InMemoryFactStore;
let saved: CleanupCursor | null;

beforeEach(() => {
  users = new InMemoryUserStore();
  sessions = new InMemorySessionStore(() => now);
  sessions.users = users;
  facts = new InMemoryFactStore();
  saved = null;
});

const fact = (id: string, type: FactType, ageDays: number, extra: Partial<Fact> = {}): Fact => ({
  id,
  text: `fact ${id}`,
  type,
  importance: 0.5,
  createdAt: now - ageDays * DAY,
  updatedAt: now - ageDays * DAY,
  lastAccessedAt: now - ageDays * DAY,
  accessCount: 0,
  version: 1,
  ...extra,
});

const deps = (overrides: Partial<CleanupDeps> = {}): CleanupDeps => ({
  runLock: new InMemoryRunLock(),
  newId: () => crypto.randomUUID(),
  sessions,
  users,
  facts,
  tenants: ["acme"],
  loadCursor: async () => saved,
  saveCursor: async (cursor) => {
    saved = structuredClone(cursor);
  },
  options: DEFAULT_MEMORY_OPTIONS,
  batch: 100,
  now,
  ...overrides,
});

describe("runCleanup: the fact sweep", () => {
  it("drops facts past their type's TTL and keeps the rest, then starts the next pass over", async () => {
    await facts.upsert(ada, [fact("a-old-context", "context", 8), fact("a-new-context", "context", 2), fact("a-fact", "fact", 100)]);
    await facts.upsert(bob, [fact("b-old-pref", "preference", 181)]);
    const report = await runCleanup(deps());
    expect(report).toMatchObject({ factsExamined: 4, factsDeleted: 2, scopesVisited: 2, completedPass: true, errors: [] });
    expect(
      facts
        .all(ada)
        .map((f) => f.id)
        .sort(),
    ).toEqual(["a-fact", "a-new-context"]);
    expect(facts.all(bob)).toEqual([]);
    expect(saved).toMatchObject({ scope: "", factCursor: "" });
  });

  it("drops a low-importance fact once it decays below the floor, never an important one of the same age", async () => {
    await facts.upsert(ada, [fact("minor", "context", 6, { importance: 0.1 }), fact("major", "context", 6, { importance: 0.9 })]);
    const report = await runCleanup(deps());
    expect(report.factsDeleted).toBe(1);
    expect(facts.all(ada).map((f) => f.id)).toEqual(["major"]);
  });

  it("stops after its batch and the next run continues where it stopped, examining each fact once", async () => {
    await facts.upsert(ada, [fact("a1", "fact", 1), fact("a2", "fact", 1), fact("a3", "fact", 1)]);
    await facts.upsert(bob, [fact("b1", "context", 30)]);
    const first = await runCleanup(deps({ batch: 2 }));
    expect(first).toMatchObject({ factsExamined: 2, completedPass: false });
    expect(saved).toMatchObject({ scope: "acme\u0000ada", factCursor: "2" });
    const second = await runCleanup(deps({ batch: 2 }));
    expect(second).toMatchObject({ factsExamined: 2, factsDeleted: 1, completedPass: true });
    expect(facts.all(bob)).toEqual([]);
  });

  it("starts the scope over when the one it stopped in was erased", async () => {
    await facts.upsert(bob, [fact("b1", "fact", 1)]);
    saved = { scope: "acme\u0000ada", factCursor: "7", sessions: {} };
    const report = await runCleanup(deps());
    expect(report).toMatchObject({ factsExamined: 1, completedPass: true });
  });
});

describe("runCleanup: deliveries, recall counts and session indexes", () => {
  it("delivers facts whose delivery failed", async () => {
    users.queue(ada, [fact("queued", "preference", 0)]);
    const report = await runCleanup(deps());
    expect(report.factsDelivered).toBe(1);
    expect(facts.all(ada).map((f) => f.id)).toEqual(["queued"]);
    expect(await users.pendingFacts(ada, 10)).toEqual([]);
  });

  it("merges counted recalls into the facts' access fields and settles the counts", async () => {
    await facts.upsert(ada, [fact("liked", "fact", 3, { accessCount: 2 })]);
    await users.recordRecalls(ada, ["liked", "gone"], now - DAY);
    await users.recordRecalls(ada, ["liked"], now - 1000);
    const report = await runCleanup(deps());
    expect(report.recallsMerged).toBe(1);
    expect(facts.all(ada)[0]).toMatchObject({ accessCount: 4, lastAccessedAt: now - 1000 });
    expect(await users.recallCounts(ada, 10)).toEqual([]);
  });

  it("removes index entries of expired sessions from the tenant's and the owner's index", async () => {
    const ref = { tenant: "acme", sessionId: "old" };
    await sessions.append(ref, [storedMessage("user", "hi")], { userId: "ada", ttlSeconds: 60 });
    await sessions.append({ tenant: "acme", sessionId: "live" }, [storedMessage("user", "hi")], { userId: "ada", ttlSeconds: 60 });
    sessions.expire(ref);
    const report = await runCleanup(deps({ facts: null }));
    expect(report.sessionEntriesRemoved).toBe(1);
    expect(sessions.indexed("acme", "ada")).toEqual(["live"]);
    expect(saved?.sessions).toEqual({ acme: "" });
  });

  it("reports a failing part and still runs the others and saves the cursor", async () => {
    await facts.upsert(ada, [fact("old", "context", 30)]);
    users.queue(bob, [fact("queued", "fact", 0)]);
    facts.failNext("scopes", new Error("vector down"));
    const report = await runCleanup(deps());
    expect(report.errors).toEqual(["facts: vector down"]);
    expect(report.factsDelivered).toBe(1);
    expect(facts.all(ada)).toHaveLength(1);
    expect(saved).not.toBeNull();
  });

  it("without a fact store, only sweeps the session indexes", async () => {
    users.queue(ada, [fact("queued", "fact", 0)]);
    const report = await runCleanup(deps({ facts: null }));
    expect(report).toMatchObject({ factsDelivered: 0, factsExamined: 0, completedPass: false, errors: [] });
  });
});

describe("runCleanup: one run at a time", () => {
  /** A run that stops after taking the lock (in its cursor load) until `resume` is called. */
  const pausedRun = (lock: InMemoryRunLock) => {
    let resume = (): void => {};
    let reached = (): void => {};
    const holding = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      resume = resolve;
    });
    const done = runCleanup(
      deps({
        runLock: lock,
        loadCursor: async () => {
          reached();
          await gate;
          return saved;
        },
      }),
    );
    return { holding, resume, done };
  };

  it("a run that starts while another holds the lock does nothing and reports the skip; each recall is merged once", async () => {
    await facts.upsert(ada, [fact("liked", "fact", 3, { accessCount: 2 })]);
    await users.recordRecalls(ada, ["liked"], now - 1000);
    await users.recordRecalls(ada, ["liked"], now - 500);
    const lock = new InMemoryRunLock({ now: () => now });
    const first = pausedRun(lock);
    await first.holding;
    const second = await runCleanup(deps({ runLock: lock }));
    expect(second).toMatchObject({ skipped: "locked", recallsMerged: 0, factsExamined: 0, sessionEntriesRemoved: 0, errors: [] });
    expect(facts.all(ada)[0]?.accessCount).toBe(2);
    expect(saved).toBeNull();
    first.resume();
    const report = await first.done;
    expect(report.skipped).toBeUndefined();
    expect(report.recallsMerged).toBe(1);
    expect(facts.all(ada)[0]).toMatchObject({ accessCount: 4, lastAccessedAt: now - 500 });
    expect(lock.holder()).toBeNull();
    // released: the next run proceeds and merges what was counted since, once
    await users.recordRecalls(ada, ["liked"], now - 100);
    const third = await runCleanup(deps({ runLock: lock }));
    expect(third).toMatchObject({ recallsMerged: 1, errors: [] });
    expect(third.skipped).toBeUndefined();
    expect(facts.all(ada)[0]?.accessCount).toBe(5);
  });

  it("releases the lock when the run throws midway", async () => {
    await users.recordRecalls(ada, ["liked"], now - 1000);
    await facts.upsert(ada, [fact("liked", "fact", 3)]);
    const lock = new InMemoryRunLock({ now: () => now });
    const failing = deps({
      runLock: lock,
      saveCursor: async () => {
        throw new Error("redis down");
      },
    });
    await expect(runCleanup(failing)).rejects.toThrow("redis down");
    expect(lock.holder()).toBeNull();
    expect(lock.calls).toEqual({ tryAcquire: 1, release: 1 });
    const next = await runCleanup(deps({ runLock: lock }));
    expect(next.skipped).toBeUndefined();
    expect(saved).not.toBeNull();
  });

  it("runs the cron's other work (re-seal, backups) after the cleanup and before the release: a run started meanwhile skips", async () => {
    const lock = new InMemoryRunLock({ now: () => now });
    const seen: { holder: string | null; overlapping?: string; merged: number }[] = [];
    const report = await runCleanup(
      deps({
        runLock: lock,
        thenHolding: async (done) => {
          const overlapping = await runCleanup(deps({ runLock: lock }));
          seen.push({ holder: lock.holder(), overlapping: overlapping.skipped, merged: done.recallsMerged });
        },
      }),
    );
    expect(seen).toEqual([{ holder: expect.stringMatching(/^cl_/), overlapping: "locked", merged: report.recallsMerged }]);
    expect(lock.holder()).toBeNull();
    // A locked run does not run it.
    let ran = 0;
    await lock.tryAcquire("cl_other", 60_000);
    await runCleanup(deps({ runLock: lock, thenHolding: async () => void (ran += 1) }));
    expect(ran).toBe(0);
  });

  it("takes a lease longer than a cron run's 15 minutes; a lease its dead run never released expires and the next run proceeds", async () => {
    let clock = now;
    const lock = new InMemoryRunLock({ now: () => clock });
    const leases: number[] = [];
    const watched = {
      tryAcquire: (token: string, leaseMs: number) => {
        leases.push(leaseMs);
        return lock.tryAcquire(token, leaseMs);
      },
      release: (token: string) => lock.release(token),
    };
    expect(await lock.tryAcquire("dead-run", CLEANUP_LEASE_MS)).toBe(true);
    expect(await runCleanup(deps({ runLock: watched }))).toMatchObject({ skipped: "locked" });
    clock += CLEANUP_LEASE_MS;
    expect((await runCleanup(deps({ runLock: watched }))).skipped).toBeUndefined();
    expect(leases).toEqual([CLEANUP_LEASE_MS, CLEANUP_LEASE_MS]);
    expect(CLEANUP_LEASE_MS).toBeGreaterThan(15 * 60_000);
  });

  it("reports a failed release (the lease then expires on its own)", async () => {
    const lock = new InMemoryRunLock({ now: () => now });
    const report = await runCleanup(
      deps({
        runLock: {
          tryAcquire: (token, leaseMs) => lock.tryAcquire(token, leaseMs),
          release: async () => {
            throw new Error("redis down");
          },
        },
      }),
    );
    expect(report.errors).toEqual(["run lock: redis down"]);
  });
});
