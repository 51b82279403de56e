import { describe, expect, it } from "vitest";
import { assembleContext, type ContextInput } from "../../../../src/memory/context/assemble.ts";
import { DEFAULT_MEMORY_OPTIONS, type MemoryOptions } from "../../../../src/memory/options.ts";
import type { TokenCounter } from "../../../../src/memory/ports/llm.ts";
import { MESSAGE_OVERHEAD_TOKENS } from "../../../../src/memory/context/window.ts";
import type { Fact, RecalledFact, StoredMessage, Summary } from "../../../../src/memory/model.ts";
import { storedMessage, toolExchange } from "../../../support/fakes/messages.ts";

// One token per character keeps the arithmetic visible.
const counter: TokenCounter = { count: (text) => text.length };

const options: MemoryOptions = { ...DEFAULT_MEMORY_OPTIONS, factsLabel: "Facts:", summaryLabel: "Summary:" };

function fact(text: string, score = 0.8): RecalledFact {
  const f: Fact = {
    id: `f-${text}`,
    text,
    type: "fact",
    importance: 0.5,
    createdAt: 0,
    updatedAt: 0,
    lastAccessedAt: 0,
    accessCount: 0,
    version: 1,
  };
  return { fact: f, similarity: score, relevance: score, score };
}

function summary(text: string, tokens = text.length): Summary {
  return { text, tokens, version: 3, covered: 12, method: "llm", updatedAt: 0, lastRatio: 0.3 };
}

function input(overrides: Partial<ContextInput>): ContextInput {
  return { system: [], summary: null, window: [], options, counter, ...overrides };
}

describe("assembleContext", () => {
  it("orders pinned system -> summary -> facts -> window and counts every part", () => {
    const system = [storedMessage("system", "be kind", { tokens: 11 })];
    const window = [storedMessage("user", "hello", { tokens: 9 }), storedMessage("assistant", "hi", { tokens: 6 })];
    const result = assembleContext(
      input({ system, summary: summary("earlier stuff"), facts: [fact("likes blue"), fact("named Ming")], window }),
    );

    expect(result.messages).toEqual([
      { role: "system", content: "be kind" },
      { role: "system", content: "Summary:\nearlier stuff" },
      { role: "system", content: "Facts:\nFacts:\n- likes blue\n- named Ming" },
      { role: "user", content: "hello" },
      { role: "assistant", content: "hi" },
    ]);
    const summaryTokens = MESSAGE_OVERHEAD_TOKENS + "Summary:\n".length + "earlier stuff".length;
    const factTokens = MESSAGE_OVERHEAD_TOKENS + "Facts:".length + "\nFacts:".length + "\n- likes blue".length + "\n- named Ming".length;
    expect(result.tokens).toEqual({
      system: 11,
      summary: summaryTokens,
      facts: factTokens,
      window: 15,
      total: 11 + summaryTokens + factTokens + 15,
    });
    expect(result.summary).toEqual({ version: 3, tokens: summaryTokens, covered: 12, method: "llm", truncated: false });
    expect(result.omitted).toEqual({ window: 0, facts: 0, summary: false });
    expect(result.facts.map((f) => f.fact.text)).toEqual(["likes blue", "named Ming"]);
  });

  it("groups recalled facts by type under one header each: preference, fact, experience, other", () => {
    const typed = (text: string, type: Fact["type"], sourceMessage?: string): RecalledFact => {
      const r = fact(text);
      return { ...r, fact: { ...r.fact, type, ...(sourceMessage ? { sourceSession: "s1", sourceMessage } : {}) } };
    };
    const facts = [
      typed("in Berlin this week", "context"),
      typed("allergic to peanuts", "fact"),
      typed("likes tea", "preference"),
      typed("ran a marathon", "experience"),
      typed("born in 1990", "fact"),
      typed("meeting at 3", "temporary"),
    ];
    const result = assembleContext(input({ facts, window: [] }));
    expect(result.messages[0]?.content).toBe(
      "Facts:\nPreferences:\n- likes tea\nFacts:\n- allergic to peanuts\n- born in 1990\nExperiences:\n- ran a marathon\nOther:\n- in Berlin this week\n- meeting at 3",
    );
    // the included facts stay best first, whichever group shows them
    expect(result.facts.map((r) => r.fact.text)).toEqual(facts.map((r) => r.fact.text));
  });

  it("shows episodes last, each dated by when it was said, and fills the allowance with learned facts first", () => {
    const episode = (text: string, said: number, score: number): RecalledFact => {
      const r = fact(text, score);
      return { ...r, fact: { ...r.fact, type: "episode", createdAt: said } };
    };
    const facts = [
      episode("I went to a support group yesterday.", Date.UTC(2023, 4, 8, 13, 56), 0.9),
      fact("has two kids", 0.5),
      episode("We camped by the lake.", Date.UTC(2023, 6, 1), 0.7),
    ];
    const all = assembleContext(input({ facts, window: [] }));
    expect(all.messages[0]?.content).toBe(
      "Facts:\nFacts:\n- has two kids\nWhat the user said (dated):\n- [8 May 2023] I went to a support group yesterday.\n- [1 Jul 2023] We camped by the lake.",
    );
    // room for one line: the learned fact takes it, though the episode ranked higher
    const room = "Facts:".length + "\nFacts:".length + "\n- has two kids".length + 4 + 10;
    expect(all.facts.map((r) => r.fact.text)).toEqual(["has two kids", "I went to a support group yesterday.", "We camped by the lake."]);
    const tight = assembleContext(
      input({ facts, window: [], options: { ...options, shares: { ...options.shares, facts: room / options.budget } } }),
    );
    expect(tight.facts.map((r) => r.fact.text)).toEqual(["has two kids"]);
  });

  it("does not repeat a fact whose source message is still in the returned window", () => {
    const source = storedMessage("user", "I like tea", { tokens: 5 });
    const learned: RecalledFact = {
      ...fact("likes tea"),
      fact: { ...fact("likes tea").fact, sourceSession: "s1", sourceMessage: source.id },
    };
    const other = fact("born in 1990");
    const here = assembleContext(input({ facts: [learned, other], window: [source], sessionId: "s1" }));
    expect(here.facts.map((r) => r.fact.text)).toEqual(["born in 1990"]);
    expect(here.messages.map((m) => m.content)).toEqual(["Facts:\nFacts:\n- born in 1990", "I like tea"]);
    // another session (its window does not hold that message) shows the fact
    const elsewhere = assembleContext(input({ facts: [learned, other], window: [], sessionId: "s2" }));
    expect(elsewhere.facts).toHaveLength(2);
  });

  it("adds no facts message when no facts are given, and returns only chat fields", () => {
    const call = toolExchange(["c1"]);
    const result = assembleContext(input({ window: [storedMessage("user", "q", { name: "ann" }), ...call] }));
    expect(result.messages.some((m) => m.content.startsWith("Facts:"))).toBe(false);
    for (const m of result.messages) {
      for (const key of Object.keys(m)) expect(["role", "content", "name", "tool_calls", "tool_call_id"]).toContain(key);
    }
    expect(result.messages[0]).toEqual({ role: "user", content: "q", name: "ann" });
    expect(result.messages[2]).toEqual({ role: "tool", content: "result c1", tool_call_id: "c1" });
  });

  it("caps facts at their share and gives the unused share to the window", () => {
    // budget 1000: reserve 50, facts cap 300; each fact line is 3 + 97 = 100 tokens
    const facts = ["a", "b", "c", "d"].map((c) => fact(c.repeat(97)));
    const window = Array.from({ length: 10 }, () => storedMessage("user", "x", { tokens: 100 }));
    const result = assembleContext(input({ facts, window, budget: 1000 }));
    expect(result.facts).toHaveLength(2); // label 4 + 6 + header 7 + two lines 200 = 217; a third would make 317
    expect(result.omitted.facts).toBe(2);
    expect(result.tokens.facts).toBe(217);
    expect(result.budget.windowAllowance).toBe(950 - 217);
    expect(result.tokens.window).toBe(700);
    expect(result.omitted.window).toBe(3);
    expect(result.tokens.total).toBeLessThanOrEqual(result.budget.available);

    // without facts the whole available budget goes to the window
    const alone = assembleContext(input({ window, budget: 1000 }));
    expect(alone.budget.windowAllowance).toBe(950);
    expect(alone.tokens.window).toBe(900);
  });

  it("skips a fact that does not fit and still takes a later, shorter one", () => {
    const facts = [fact("x".repeat(400)), fact("short")];
    const result = assembleContext(input({ facts, budget: 1000 }));
    expect(result.facts.map((f) => f.fact.text)).toEqual(["short"]);
    expect(result.omitted.facts).toBe(1);
  });

  it("never drops system messages, even over the budget, and reports it", () => {
    const system = [storedMessage("system", "huge", { tokens: 900 }), storedMessage("system", "more", { tokens: 200 })];
    const window = [storedMessage("user", "q", { tokens: 10 })];
    const result = assembleContext(input({ system, summary: summary("s"), facts: [fact("f")], window, budget: 1000 }));
    expect(result.messages.map((m) => m.content)).toEqual(["huge", "more"]);
    expect(result.budget.overBudget).toBe(true);
    expect(result.tokens.system).toBe(1100);
    expect(result.omitted).toEqual({ window: 1, facts: 1, summary: true });
    expect(result.summary).toBeNull();
  });

  it("shows only the last `window` messages when that option is set", () => {
    const window = Array.from({ length: 10 }, (_, i) => storedMessage("user", `m${i}`, { tokens: 1 }));
    const result = assembleContext(input({ window, options: { ...options, window: 3 } }));
    expect(result.messages.map((m) => m.content)).toEqual(["m7", "m8", "m9"]);
    expect(result.omitted.window).toBe(7);
  });

  it("cuts a summary that exceeds its share instead of dropping it", () => {
    const long = Array.from({ length: 20 }, (_, i) => `line ${i} of the summary`).join("\n");
    const result = assembleContext(input({ summary: summary(long), budget: 1000 })); // summary cap 100
    expect(result.summary?.truncated).toBe(true);
    expect(result.tokens.summary).toBeLessThanOrEqual(100);
    expect(result.messages[0]?.content.startsWith("Summary:\nline 0 of the summary\n")).toBe(true);
  });

  it("trims the window importance-first and keeps tool pairs whole within the budget", () => {
    const low = storedMessage("user", "chit-chat", { tokens: 100, importance: 0.1 });
    const exchange = toolExchange(["t1", "t2"], 100);
    const latest = storedMessage("user", "question", { tokens: 100 });
    const result = assembleContext(input({ window: [low, ...exchange, latest], budget: 500 })); // available 475
    expect(result.messages.map((m) => m.content)).toEqual(["", "result t1", "result t2", "question"]);
    expect(result.omitted.window).toBe(1);
  });

  it("is pure: the inputs are left as they were", () => {
    const system = [storedMessage("system", "s", { tokens: 5 })];
    const window = [storedMessage("user", "u", { tokens: 5 })];
    const facts = [fact("f")];
    const snapshot = structuredClone({ system, window, facts });
    assembleContext(input({ system, window, facts, budget: 20 }));
    expect({ system, window, facts }).toEqual(snapshot);
  });

  it("uses the options' budget unless one is given", () => {
    const window: StoredMessage[] = [];
    expect(assembleContext(input({ window })).budget.total).toBe(8000);
    expect(assembleContext(input({ window, budget: 2000 })).budget).toMatchObject({ total: 2000, reserve: 100, available: 1900 });
  });
});
