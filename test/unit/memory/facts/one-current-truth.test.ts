// One current truth per relation: learning turns of one user serialized under the lock, reading by id what the turns before wrote; every current fact of a relation superseded.
import { beforeAll, describe, expect, it } from "vitest";
import { HeuristicFactExtractor } from "../../../../src/llm/heuristic-extractor.ts";
import { OfflineRelationKeys } from "../../../../src/llm/offline-learner/relation-keys.ts";
import { loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import { FactService } from "../../../../src/memory/facts/fact-service.ts";
import { learnFromMessages } from "../../../../src/memory/facts/learning.ts";
import { LEARNING_LOCK_WAIT_MS } from "../../../../src/memory/facts/learning-lock.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import type { FactExtractor, FactOperation, TokenCounter } from "../../../../src/memory/ports/llm.ts";
import type { Fact, StoredMessage } from "../../../../src/memory/model.ts";
import { testDeps } from "../../../support/memory-deps.ts";
import { InMemoryUserStore } from "../../../support/fakes/facts.ts";
import { InMemoryLearningLocks, LaggingFactStore } from "../../../support/fakes/learning.ts";

const scope = { tenant: "acme", userId: "u1" };
// The learner's own operations; the episodes a turn also writes are tested in episodes.test.ts.
const options = { ...DEFAULT_MEMORY_OPTIONS, retrieval: "dense" as const, episodes: false };
let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

let seq = 0;
const said = (content: string): StoredMessage => ({ id: `m${++seq}`, role: "user", content, tokens: 5, importance: 0.5, ts: Date.now() });
const currentHomes = (facts: Fact[]) =>
  facts
    .filter((f) => f.supersededAt === undefined && /^The user lives in /.test(f.text))
    .map((f) => f.text)
    .sort();

/** A user who lived in Paris, on a store whose query lags its writes (the index saw only Paris). */
async function parisUser(withLocks: boolean) {
  const facts = new LaggingFactStore();
  const users = new InMemoryUserStore();
  const locks = new InMemoryLearningLocks({ erasedAt: (s) => users.tombstone(s) });
  const deps = testDeps({
    counter,
    facts,
    users,
    extractor: new HeuristicFactExtractor(),
    learningLocks: withLocks ? locks : null,
    relationKeys: new OfflineRelationKeys(),
  });
  await new FactService({ facts, scope, options }).remember({ text: "The user lives in Paris.", type: "fact", importance: 0.8 });
  await facts.sync(scope);
  const learn = (content: string, at = Date.now()) =>
    learnFromMessages(deps, { scope, sessionId: "s1", messages: [said(content)], scheduledAt: at });
  return { facts, users, locks, deps, learn };
}

describe("parallel learning turns of one user", () => {
  it("leave one current home even when the index has not caught up, and the next move supersedes it", async () => {
    const { facts, locks, learn } = await parisUser(true);
    const cities = Array.from({ length: 12 }, (_, i) => `Town${String.fromCharCode(65 + i)}`);
    await Promise.all(cities.map((city) => learn(`I live in ${city}.`)));
    const homes = currentHomes(facts.all(scope));
    expect(homes).toHaveLength(1);
    expect(cities.map((c) => `The user lives in ${c}.`)).toContain(homes[0]);
    // the index still shows Paris current: only the ids recorded at each release let the turns converge
    expect(locks.written(scope).length).toBeGreaterThan(0);
    expect(locks.held(scope)).toBe(false);
    await learn("I moved to Tokyo.");
    expect(currentHomes(facts.all(scope))).toEqual(["The user lives in Tokyo."]);
  });

  it("run their extraction calls one at a time", async () => {
    const { deps } = await parisUser(true);
    let running = 0;
    let most = 0;
    const slow: FactExtractor = {
      async extract(request) {
        running += 1;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        running -= 1;
        return new HeuristicFactExtractor().extract(request);
      },
    };
    const slowDeps = { ...deps, extractor: slow };
    await Promise.all(
      ["Rome", "Berlin", "Madrid", "Lisbon"].map((city) =>
        learnFromMessages(slowDeps, { scope, sessionId: "s1", messages: [said(`I live in ${city}.`)], scheduledAt: Date.now() }),
      ),
    );
    expect(most).toBe(1);
  });

  it("record nothing for the next turn once the user is erased, and still release the lock", async () => {
    const { facts, users, locks, learn } = await parisUser(true);
    const before = Date.now() - 1000;
    await users.markErased(scope, Date.now());
    locks.clear(scope);
    expect(await learn("I live in Rome.", before)).toBeNull();
    expect(locks.written(scope)).toEqual([]);
    expect(locks.held(scope)).toBe(false);
    expect(currentHomes(facts.all(scope))).toEqual(["The user lives in Paris."]);
  });

  it("release the lock when the turn fails", async () => {
    const { deps, locks } = await parisUser(true);
    const failing: FactExtractor = {
      extract: () => Promise.reject(new Error("boom")),
    };
    await expect(
      learnFromMessages(
        { ...deps, extractor: failing },
        { scope, sessionId: "s1", messages: [said("I live in Rome.")], scheduledAt: Date.now() },
      ),
    ).rejects.toThrow("boom");
    expect(locks.held(scope)).toBe(false);
  });
});

describe("a turn that cannot take the lock", () => {
  it("waits at most LEARNING_LOCK_WAIT_MS, then learns without it (logged), leaving the holder's lock alone", async () => {
    const { deps, locks, facts } = await parisUser(true);
    await locks.tryAcquire(scope, "stuck", 3_600_000);
    let clock = Date.now();
    const warnings: string[] = [];
    const report = await learnFromMessages(
      {
        ...deps,
        // each look at the clock is 4 s later: the wait ends after a few polls
        now: () => (clock += 4000),
        logger: { ...deps.logger, warn: (msg: string) => warnings.push(msg) },
      },
      { scope, sessionId: "s1", messages: [said("I live in Rome.")], scheduledAt: Date.now() },
    );
    expect(report?.superseded).toHaveLength(1);
    expect(warnings).toEqual(["learning lock still held: this turn learns without it"]);
    expect(locks.held(scope)).toBe(true);
    expect(clock - Date.now()).toBeGreaterThanOrEqual(LEARNING_LOCK_WAIT_MS);
    expect(currentHomes(facts.all(scope))).toEqual(["The user lives in Rome."]);
  });
});

describe("a statement that meets several current facts of its relation", () => {
  it("supersedes all of them (offline learner): one supersede operation each", async () => {
    const { facts } = await parisUser(false);
    const service = new FactService({ facts, scope, options });
    await service.import([
      { text: "The user lives in Rome.", type: "fact", importance: 0.8 },
      { text: "The user lives in Berlin.", type: "fact", importance: 0.8 },
    ]);
    await facts.sync(scope);
    const existing = facts.all(scope);
    const ops = await new HeuristicFactExtractor().extract({ messages: [said("I moved to Tokyo.")], existing });
    expect(
      ops
        .filter((o) => o.op === "supersede")
        .map((o) => (o as { id: string }).id)
        .sort(),
    ).toEqual(existing.map((f) => f.id).sort());
    const report = await service.learn(new HeuristicFactExtractor(), [said("I moved to Tokyo.")], "s1");
    expect(report.superseded).toHaveLength(3);
    // the one new fact, named once per fact it superseded
    expect(new Set(report.added).size).toBe(1);
    expect(currentHomes(facts.all(scope))).toEqual(["The user lives in Tokyo."]);
    for (const fact of facts.all(scope).filter((f) => f.text !== "The user lives in Tokyo."))
      expect(fact.supersededBy).toBe(report.added[0]);
  });

  it("supersedes all of them when the LLM learner names only one (relation keys)", async () => {
    const { facts } = await parisUser(false);
    const service = new FactService({ facts, scope, options });
    await service.import([{ text: "The user lives in Rome.", type: "fact", importance: 0.8 }]);
    await facts.sync(scope);
    const namesOne: FactExtractor = {
      async extract({ existing }): Promise<FactOperation[]> {
        const paris = existing.find((f) => f.text.includes("Paris"))!;
        return [{ op: "supersede", id: paris.id, text: "The user lives in Tokyo.", type: "fact", importance: 0.9 }];
      },
    };
    const report = await service.learn(namesOne, [said("I moved to Tokyo.")], "s1", { relationKeys: new OfflineRelationKeys() });
    expect(report.superseded).toHaveLength(2);
    expect(currentHomes(facts.all(scope))).toEqual(["The user lives in Tokyo."]);
  });
});

describe("agent scope of a learning turn", () => {
  it("a turn of no agent is offered only shared facts; a turn of an agent its own and the shared ones", async () => {
    const { facts } = await parisUser(false);
    const service = new FactService({ facts, scope, options });
    await service.remember({ text: "The user lives in Oslo.", type: "fact", importance: 0.8, agentId: "planner" });
    await service.remember({ text: "The user lives in Bergen.", type: "fact", importance: 0.8, agentId: "writer" });
    await facts.sync(scope);
    const offered: string[][] = [];
    const spy: FactExtractor = {
      async extract({ existing }) {
        offered.push(existing.map((f) => f.text).sort());
        return [];
      },
    };
    await service.learn(spy, [said("I live in Rome.")], "s1");
    await service.learn(spy, [said("I live in Rome.")], "s1", { agentId: "planner" });
    expect(offered).toEqual([["The user lives in Paris."], ["The user lives in Oslo.", "The user lives in Paris."]]);
    // and the offline learner then supersedes only what it was offered
    await service.learn(new HeuristicFactExtractor(), [said("I live in Rome.")], "s1");
    expect(currentHomes(facts.all(scope))).toEqual(["The user lives in Bergen.", "The user lives in Oslo.", "The user lives in Rome."]);
  });
});
