// Learning from conversation: the gate (what reaches the learner) and how operations are applied (supersession).
import { beforeAll, describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import { FactService } from "../../../../src/memory/facts/fact-service.ts";
import { factId } from "../../../../src/memory/facts/identity.ts";
import { SessionMemory } from "../../../../src/memory/sessions/session-memory.ts";
import { learnFromMessages } from "../../../../src/memory/facts/learning.ts";
import { LlmError } from "../../../../src/memory/errors.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import type { FactExtractor, FactOperation, TokenCounter } from "../../../../src/memory/ports/llm.ts";
import type { Fact, StoredMessage } from "../../../../src/memory/model.ts";
import { testDeps } from "../../../support/memory-deps.ts";
import { InMemoryFactStore } from "../../../support/fakes/facts.ts";

const scope = { tenant: "acme", userId: "u1" };
const NOW = Date.UTC(2026, 2, 10);
const options = { ...DEFAULT_MEMORY_OPTIONS, retrieval: "dense" as const, episodes: false }; // episodes: episodes.test.ts

/** Answers each call with the next scripted list (operations may depend on the facts offered) and records the calls. */
class ScriptedExtractor implements FactExtractor {
  readonly version = "scripted/1";
  readonly calls: { messages: StoredMessage[]; existing: Fact[] }[] = [];
  constructor(private readonly steps: ((existing: Fact[]) => FactOperation[])[]) {}
  async extract(request: { messages: StoredMessage[]; existing: Fact[] }): Promise<FactOperation[]> {
    this.calls.push(request);
    const step = this.steps[this.calls.length - 1];
    if (!step) throw new Error("no scripted answer left");
    return step(request.existing);
  }
}

const userMessage = (content: string, id = "m1"): StoredMessage => ({ id, role: "user", content, tokens: 5, importance: 0.5, ts: NOW });

async function serviceWith(texts: string[]) {
  const store = new InMemoryFactStore();
  let clock = NOW;
  const service = new FactService({ facts: store, scope, options, now: () => clock });
  const stored: Fact[] = [];
  for (const text of texts) stored.push((await service.remember({ text, type: "fact", importance: 0.8 })).fact);
  return { store, service, stored, tick: (ms: number) => (clock += ms) };
}

describe("supersession", () => {
  it("keeps the old fact, marked with when it stopped being true and by which fact, writes both in one upsert, and recalls only the new one", async () => {
    const { store, service, stored, tick } = await serviceWith(["The user lives in Paris"]);
    const paris = stored[0]!;
    tick(1000);
    const extractor = new ScriptedExtractor([
      (existing) => [{ op: "supersede", id: existing[0]!.id, text: "The user lives in Berlin", type: "fact", importance: 0.9 }],
    ]);
    const upsertsBefore = store.calls.upsert ?? 0;
    const report = await service.learn(extractor, [userMessage("I moved to Berlin")], "s1");
    expect(store.calls.upsert! - upsertsBefore).toBe(1);
    const berlinId = await factId(scope, "The user lives in Berlin");
    expect(report).toEqual({ added: [berlinId], updated: [], superseded: [paris.id], skipped: 0, episodes: [] });

    const all = store.all(scope);
    const old = all.find((f) => f.id === paris.id)!;
    expect(old).toMatchObject({
      text: "The user lives in Paris",
      supersededAt: NOW + 1000,
      supersededBy: berlinId,
      version: 2,
      createdAt: NOW,
    });
    const current = all.find((f) => f.id === berlinId)!;
    expect(current.supersededAt).toBeUndefined();
    expect(current).toMatchObject({ sourceSession: "s1", sourceMessage: "m1", metadata: { learnedBy: "scripted/1" } });

    const recalled = await service.recall("Where does the user live? Paris or Berlin", { k: 5, minScore: 0 });
    expect(recalled.map((r) => r.fact.text)).toEqual(["The user lives in Berlin"]);
    // history and export keep both
    expect((await service.list("", 10)).facts.map((f) => f.id).sort()).toEqual([paris.id, berlinId].sort());
  });

  it("is applied whole or not at all: a failed write leaves the old fact current", async () => {
    const { store, service, stored } = await serviceWith(["The user works at Acme"]);
    const extractor = new ScriptedExtractor([
      (existing) => [{ op: "supersede", id: existing[0]!.id, text: "The user works at Globex", type: "fact", importance: 0.8 }],
    ]);
    store.failNext("upsert");
    await expect(service.learn(extractor, [userMessage("I switched to Globex")], "s1")).rejects.toThrow();
    expect(store.all(scope)).toEqual([stored[0]]);
  });

  it("skips a supersede of a fact that was not offered, and one that restates the old fact", async () => {
    const { store, service, stored } = await serviceWith(["The user has a cat named Tofu"]);
    const extractor = new ScriptedExtractor([
      () => [
        { op: "supersede", id: "f000000000000000000000000", text: "The user has a dog", type: "fact", importance: 0.7 },
        { op: "supersede", id: stored[0]!.id, text: "The user has a cat named Tofu.", type: "fact", importance: 0.7 },
      ],
    ]);
    const report = await service.learn(extractor, [userMessage("Tofu is my cat")], "s1");
    expect(report).toEqual({ added: [], updated: [], superseded: [], skipped: 2, episodes: [] });
    expect(store.all(scope)).toEqual(stored);
  });

  it("offers only current facts to the extractor, and a new statement of a superseded text makes it current again", async () => {
    const { store, service, stored, tick } = await serviceWith(["The user lives in Paris"]);
    const paris = stored[0]!;
    tick(1000);
    await service.learn(
      new ScriptedExtractor([
        (existing) => [{ op: "supersede", id: existing[0]!.id, text: "The user lives in Berlin", type: "fact", importance: 0.9 }],
      ]),
      [userMessage("moved to Berlin")],
      "s1",
    );
    tick(1000);
    const back = new ScriptedExtractor([
      (existing) => [{ op: "supersede", id: existing[0]!.id, text: "The user lives in Paris", type: "fact", importance: 0.9 }],
    ]);
    const report = await service.learn(back, [userMessage("I moved back to Paris")], "s1");
    expect(back.calls[0]!.existing.map((f) => f.text)).toEqual(["The user lives in Berlin"]);
    expect(report.added).toEqual([paris.id]);
    const byText = new Map(store.all(scope).map((f) => [f.text, f]));
    expect(byText.get("The user lives in Paris")!.supersededAt).toBeUndefined();
    expect(byText.get("The user lives in Berlin")).toMatchObject({ supersededAt: NOW + 2000, supersededBy: paris.id });
    const recalled = await service.recall("The user lives in", { k: 5, minScore: 0 });
    expect(recalled.map((r) => r.fact.text)).toEqual(["The user lives in Paris"]);
  });

  it("an update stays one fact: a new version, the old text in history", async () => {
    const { store, service, stored } = await serviceWith(["The user's sister Mia lives in Lisbon"]);
    const extractor = new ScriptedExtractor([
      (existing) => [
        {
          op: "update",
          id: existing[0]!.id,
          text: "The user's sister Mia lives in Lisbon and works as an architect",
          type: "fact",
          importance: 0.9,
        },
      ],
    ]);
    const report = await service.learn(extractor, [userMessage("Mia is an architect")], "s1");
    expect(report.updated).toEqual([stored[0]!.id]);
    const [fact] = store.all(scope);
    expect(fact).toMatchObject({
      id: stored[0]!.id,
      version: 2,
      text: "The user's sister Mia lives in Lisbon and works as an architect",
      history: [{ text: "The user's sister Mia lives in Lisbon" }],
    });
    expect(fact!.supersededAt).toBeUndefined();
  });
});

describe("a learning turn is one write", () => {
  it("applies every operation of a turn in one upsert; a failed write applies none", async () => {
    const { store, service, stored, tick } = await serviceWith(["The user lives in Paris", "The user's sister Mia lives in Lisbon"]);
    const [paris, mia] = stored as [Fact, Fact];
    tick(1000);
    const turn = () =>
      new ScriptedExtractor([
        () => [
          { op: "add", text: "The user has a greyhound called Biscuit", type: "fact", importance: 0.7 },
          { op: "supersede", id: paris.id, text: "The user lives in Berlin", type: "fact", importance: 0.9 },
          {
            op: "update",
            id: mia.id,
            text: "The user's sister Mia lives in Lisbon and works as an architect",
            type: "fact",
            importance: 0.8,
          },
        ],
      ]);
    store.failNext("upsert");
    await expect(service.learn(turn(), [userMessage("news")], "s1")).rejects.toThrow();
    expect(store.all(scope)).toEqual(stored);

    const upsertsBefore = store.calls.upsert ?? 0;
    const report = await service.learn(turn(), [userMessage("news")], "s1");
    expect(store.calls.upsert! - upsertsBefore).toBe(1);
    expect(report).toMatchObject({ updated: [mia.id], superseded: [paris.id], skipped: 0, episodes: [] });
    expect(report.added).toHaveLength(2);
    expect(
      store
        .all(scope)
        .map((f) => f.text)
        .sort(),
    ).toEqual([
      "The user has a greyhound called Biscuit",
      "The user lives in Berlin",
      "The user lives in Paris",
      "The user's sister Mia lives in Lisbon and works as an architect",
    ]);
  });

  it("lets a later operation of the turn see an earlier one: a fact added and then superseded by the same turn is one fact", async () => {
    const { store, service, stored, tick } = await serviceWith(["The user works at Acme"]);
    tick(1000);
    const extractor = new ScriptedExtractor([
      (existing) => [
        { op: "add", text: "The user works at Globex", type: "fact", importance: 0.6 },
        { op: "supersede", id: existing[0]!.id, text: "The user works at Globex", type: "fact", importance: 0.9 },
      ],
    ]);
    const report = await service.learn(extractor, [userMessage("I switched to Globex")], "s1");
    const globex = await factId(scope, "The user works at Globex");
    expect(report).toEqual({ added: [globex, globex], updated: [], superseded: [stored[0]!.id], skipped: 0, episodes: [] });
    const all = store.all(scope);
    expect(all).toHaveLength(2);
    expect(all.find((f) => f.id === globex)).toMatchObject({ importance: 0.9, version: 2 });
    expect(all.find((f) => f.id === stored[0]!.id)).toMatchObject({ supersededBy: globex });
  });
});

describe("the fallback learner", () => {
  let counter: TokenCounter;
  beforeAll(async () => {
    counter = await loadTokenCounter();
  });
  const failing = (error: Error): FactExtractor => ({ version: "llm/1", extract: async () => Promise.reject(error) });
  const offline = (): ScriptedExtractor =>
    new ScriptedExtractor([() => [{ op: "add", text: "The user is allergic to peanuts", type: "fact", importance: 0.9 }]]);

  it("takes the turn when the extractor fails upstream or times out", async () => {
    for (const error of [new LlmError("upstream", "HTTP 503", { status: 503 }), new LlmError("timeout", "timed out")]) {
      const fallback = offline();
      const deps = testDeps({ counter, extractor: failing(error), fallbackExtractor: fallback, facts: new InMemoryFactStore() });
      const report = await learnFromMessages(deps, {
        scope,
        sessionId: "s1",
        messages: [userMessage("I'm allergic to peanuts")],
        scheduledAt: NOW,
      });
      expect(report?.added).toHaveLength(1);
      expect(fallback.calls).toHaveLength(1);
    }
  });

  it("does not for a malformed answer: that one is dropped, nothing learned", async () => {
    const fallback = offline();
    const deps = testDeps({
      counter,
      extractor: failing(new LlmError("bad_output", "not JSON")),
      fallbackExtractor: fallback,
      facts: new InMemoryFactStore(),
    });
    await expect(
      learnFromMessages(deps, { scope, sessionId: "s1", messages: [userMessage("I'm allergic to peanuts")], scheduledAt: NOW }),
    ).rejects.toThrow("not JSON");
    expect(fallback.calls).toHaveLength(0);
  });
});

describe("what reaches the learner", () => {
  let counter: TokenCounter;
  beforeAll(async () => {
    counter = await loadTokenCounter();
  });

  it("every user message that is not filler, in one call per append, with the assistant message before it; filler and persisted messages never", async () => {
    const extractor = new ScriptedExtractor(Array.from({ length: 10 }, () => () => []));
    const deps = testDeps({ counter, extractor, facts: new InMemoryFactStore() });
    const manager = new SessionMemory(deps, { sessionId: "s1", userId: "u1" });
    const lines = [
      "Hi!",
      "ok",
      "谢谢",
      "👍",
      "My sister Mia lives in Lisbon and works as an architect.",
      "我们家的猫叫团子，三岁了。",
      "Can you recommend a podcast?",
    ];
    for (const [i, content] of lines.entries()) {
      await manager.add([
        { id: `a${i}`, role: "assistant", content: `reply ${i}` },
        { id: `u${i}`, role: "user", content },
      ]);
      await deps.settle();
    }
    await manager.add([{ id: "p1", role: "user", content: "My blood type is O negative", persist: true }]);
    await deps.settle();
    expect(extractor.calls.map((c) => c.messages.map((m) => `${m.role}: ${m.content}`))).toEqual([
      ["assistant: reply 4", "user: My sister Mia lives in Lisbon and works as an architect."],
      ["assistant: reply 5", "user: 我们家的猫叫团子，三岁了。"],
      ["assistant: reply 6", "user: Can you recommend a podcast?"],
    ]);
  });

  it("a chat turn's learner gets the assistant message before the user's from the window the append returned", async () => {
    const extractor = new ScriptedExtractor(Array.from({ length: 3 }, () => () => []));
    const deps = testDeps({ counter, extractor, facts: new InMemoryFactStore() });
    const manager = new SessionMemory(deps, { sessionId: "s2", userId: "u1" });
    await manager.add([
      { id: "u0", role: "user", content: "Which one should I pick, the red or the blue bike?" },
      { id: "a0", role: "assistant", content: "The blue one is lighter." },
    ]);
    await deps.settle();
    await manager.addWithContext([{ id: "u1", role: "user", content: "yes, that one - I bought it today" }], { query: "bike" });
    await deps.settle();
    expect(extractor.calls.at(-1)!.messages.map((m) => `${m.role}: ${m.content}`)).toEqual([
      "assistant: The blue one is lighter.",
      "user: yes, that one - I bought it today",
    ]);
  });
});
