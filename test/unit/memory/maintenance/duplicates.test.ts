import { beforeEach, describe, expect, it } from "vitest";
import { OfflineRelationKeys } from "../../../../src/llm/offline-learner/relation-keys.ts";
import { runCleanup, type CleanupCursor, type CleanupDeps } from "../../../../src/memory/maintenance/cleanup.ts";
import { duplicateSupersedes } from "../../../../src/memory/maintenance/duplicates.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import type { Fact } from "../../../../src/memory/model.ts";
import { InMemoryRunLock } from "../../../support/fakes/maintenance.ts";
import { InMemoryFactStore, InMemoryUserStore } from "../../../support/fakes/facts.ts";
import { InMemoryLearningLocks } from "../../../support/fakes/learning.ts";
import { InMemorySessionStore } from "../../../support/fakes/sessions.ts";

const DAY = 86_400_000;
const now = Date.UTC(2026, 5, 1);
const ada = { tenant: "acme", userId: "ada" };
const keys = new OfflineRelationKeys();

const fact = (id: string, text: string, ageDays: number, extra: Partial<Fact> = {}): Fact => ({
  id,
  text,
  type: "fact",
  importance: 0.8,
  createdAt: now - ageDays * DAY,
  updatedAt: now - ageDays * DAY,
  lastAccessedAt: now - ageDays * DAY,
  accessCount: 0,
  version: 1,
  ...extra,
});

let facts: InMemoryFactStore;
let users: InMemoryUserStore;
let locks: InMemoryLearningLocks;
let saved: CleanupCursor | null;
beforeEach(() => {
  facts = new InMemoryFactStore();
  users = new InMemoryUserStore();
  locks = new InMemoryLearningLocks({ now: () => now });
  saved = null;
});

const deps = (overrides: Partial<CleanupDeps> = {}): CleanupDeps => ({
  runLock: new InMemoryRunLock(),
  newId: () => crypto.randomUUID(),
  sessions: new InMemorySessionStore(() => now),
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
  relationKeys: keys,
  learningLocks: locks,
  ...overrides,
});

describe("duplicateSupersedes", () => {
  it("keeps the newest current fact per agent and single-valued relation, marking the others superseded by it", () => {
    const marked = duplicateSupersedes(
      [
        fact("paris", "The user lives in Paris.", 30),
        fact("rome", "The user lives in Rome.", 2),
        fact("berlin", "The user lives in Berlin.", 10),
        fact("oslo", "The user lives in Oslo.", 40, { agentId: "planner" }),
        fact("old", "The user lives in Lyon.", 50, { supersededAt: now - DAY, supersededBy: "paris" }),
        fact("dog", "The user has a dog.", 5),
        fact("cat", "The user has a cat.", 6),
      ],
      keys,
      now,
    );
    expect(marked.map((f) => [f.id, f.supersededBy, f.supersededAt, f.version]).sort()).toEqual([
      ["berlin", "rome", now, 2],
      ["paris", "rome", now, 2],
    ]);
  });
});

describe("the cron's duplicate repair", () => {
  it("leaves one current home per user and agent after a sweep", async () => {
    await facts.upsert(ada, [
      fact("paris", "The user lives in Paris.", 30),
      fact("rome", "The user lives in Rome.", 2),
      fact("oslo", "The user lives in Oslo.", 40, { agentId: "planner" }),
    ]);
    const report = await runCleanup(deps());
    expect(report).toMatchObject({ duplicatesSuperseded: 1, errors: [] });
    const all = new Map(facts.all(ada).map((f) => [f.id, f]));
    expect(all.get("paris")).toMatchObject({ supersededBy: "rome", supersededAt: now });
    expect(all.get("rome")?.supersededAt).toBeUndefined();
    expect(all.get("oslo")?.supersededAt).toBeUndefined();
    expect(locks.held(ada)).toBe(false);
  });

  it("waits for the next pass while a learning turn holds the user's lock", async () => {
    await facts.upsert(ada, [fact("paris", "The user lives in Paris.", 30), fact("rome", "The user lives in Rome.", 2)]);
    await locks.tryAcquire(ada, "turn", 60_000);
    expect((await runCleanup(deps())).duplicatesSuperseded).toBe(0);
    expect(facts.all(ada).every((f) => f.supersededAt === undefined)).toBe(true);
    await locks.release(ada, "turn", [], now, now);
    saved = null;
    expect((await runCleanup(deps())).duplicatesSuperseded).toBe(1);
  });

  it("decides on the facts as they are when it repairs, not as the sweep read them", async () => {
    await facts.upsert(ada, [fact("paris", "The user lives in Paris.", 30), fact("rome", "The user lives in Rome.", 2)]);
    // a turn superseded Rome between the sweep's read and the repair: nothing is left to repair
    const list = facts.list.bind(facts);
    facts.list = async (scope, cursor, limit) => {
      const page = await list(scope, cursor, limit);
      await facts.upsert(ada, [fact("rome", "The user lives in Rome.", 2, { supersededAt: now, supersededBy: "paris", version: 2 })]);
      return page;
    };
    expect((await runCleanup(deps())).duplicatesSuperseded).toBe(0);
    expect(facts.all(ada).find((f) => f.id === "paris")?.supersededAt).toBeUndefined();
  });

  it("repairs nothing without relation keys", async () => {
    await facts.upsert(ada, [fact("paris", "The user lives in Paris.", 30), fact("rome", "The user lives in Rome.", 2)]);
    expect((await runCleanup(deps({ relationKeys: null }))).duplicatesSuperseded).toBe(0);
  });
});
