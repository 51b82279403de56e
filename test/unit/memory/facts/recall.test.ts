import { describe, expect, it } from "vitest";
import { createFact } from "../../../../src/memory/facts/identity.ts";
import { rankRecalled, recallFrom, scoreRecall, selectRecalled } from "../../../../src/memory/facts/recall.ts";
import {
  DEFAULT_RECALL_GATES,
  DENSE_ZERO_COSINE,
  denseRelevance,
  HYBRID_DENSE_WEIGHTS,
  HYBRID_SCRIPT_GATES,
  queryCjkShare,
  SPARSE_SCALE,
  relevanceOf,
} from "../../../../src/memory/facts/relevance.ts";
import {
  isFollowUp,
  recallQuery,
  recallQueryText,
  recallQueryTexts,
  turnRecallQuery,
  unionWords,
} from "../../../../src/memory/facts/recall-query.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import type { Fact } from "../../../../src/memory/model.ts";
import { InMemoryFactStore } from "../../../support/fakes/facts.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);
const options = DEFAULT_MEMORY_OPTIONS;

function fact(overrides: Partial<Fact> = {}): Fact {
  return { ...createFact("f1", { text: "likes blue", type: "preference", importance: 0.5 }, NOW), ...overrides };
}

describe("scoreRecall and the tie-break margin", () => {
  it("is relevance plus at most the margin", () => {
    for (const importance of [0, 0.5, 1]) {
      const score = scoreRecall({ relevance: 0.4, fact: fact({ importance, accessCount: 1000 }), now: NOW, margin: 0.05, options });
      expect(score).toBeGreaterThanOrEqual(0.4);
      expect(score).toBeLessThanOrEqual(0.45 + 1e-12);
    }
  });

  it("lets importance break a near-tie but never lift a clearly less relevant fact", () => {
    const important = fact({ id: "i", importance: 1, accessCount: 100 });
    const minor = fact({
      id: "m",
      importance: 0.1,
      createdAt: NOW - 100 * DAY,
      updatedAt: NOW - 100 * DAY,
      lastAccessedAt: NOW - 100 * DAY,
    });
    const s = (relevance: number, f: Fact) => scoreRecall({ relevance, fact: f, now: NOW, margin: 0.05, options });
    // within the margin: importance wins
    expect(s(0.5, important)).toBeGreaterThan(s(0.53, minor));
    // beyond the margin: relevance wins, whatever the importance
    expect(s(0.5, important)).toBeLessThan(s(0.551, minor));
    expect(s(0.2, fact({ importance: 1, accessCount: 1000 }))).toBeLessThan(s(0.26, fact({ importance: 0 })));
  });
});

describe("relevanceOf", () => {
  const f = fact();
  it("maps each mode's native score to 0..1 with 0 = unrelated", () => {
    // dense: Upstash's (1 + cos) / 2; cosine DENSE_ZERO_COSINE or less is unrelated, cosine 1 is 1
    expect(relevanceOf({ fact: f, similarity: 0.5 }, "dense")).toBe(0);
    expect(relevanceOf({ fact: f, similarity: (1 + DENSE_ZERO_COSINE) / 2 }, "dense")).toBe(0);
    expect(relevanceOf({ fact: f, similarity: (1 + (1 + DENSE_ZERO_COSINE) / 2) / 2 }, "dense")).toBeCloseTo(0.5, 12);
    expect(relevanceOf({ fact: f, similarity: 1 }, "dense")).toBe(1);
    expect(relevanceOf({ fact: f, similarity: 0 }, "sparse")).toBe(0);
    expect(relevanceOf({ fact: f, similarity: SPARSE_SCALE }, "sparse")).toBeCloseTo(1 - Math.exp(-1), 12);
    // hybrid: both parts count; a part that did not find the fact counts 0
    const both = relevanceOf({ fact: f, similarity: 0, dense: 0.75, sparse: 4 }, "hybrid");
    expect(both).toBeGreaterThan(relevanceOf({ fact: f, similarity: 0, dense: 0.75 }, "hybrid"));
    expect(both).toBeGreaterThan(relevanceOf({ fact: f, similarity: 0, sparse: 4 }, "hybrid"));
  });
});

describe("hybrid fusion by query script", () => {
  const f = fact();
  it("measures a query's CJK share as the dev stack's dense model splits a text", () => {
    expect(queryCjkShare("What pet do I have?")).toBe(0);
    expect(queryCjkShare("我对什么过敏")).toBe(1);
    expect(queryCjkShare("")).toBe(0);
    // two Latin words and two CJK characters (0.6 of a word each)
    expect(queryCjkShare("my thesis 导师")).toBeCloseTo(1.2 / 3.2, 12);
  });

  it("weights the dense part by the query's script and interpolates a mixed query", () => {
    const denseOnly = { fact: f, similarity: 0, dense: 1 };
    const sparseOnly = { fact: f, similarity: 0, sparse: 1e9 };
    expect(relevanceOf(denseOnly, "hybrid", 0)).toBeCloseTo(HYBRID_DENSE_WEIGHTS.latin, 12);
    expect(relevanceOf(denseOnly, "hybrid", 1)).toBeCloseTo(HYBRID_DENSE_WEIGHTS.cjk, 12);
    expect(relevanceOf(sparseOnly, "hybrid", 1)).toBeCloseTo(1 - HYBRID_DENSE_WEIGHTS.cjk, 12);
    expect(relevanceOf(denseOnly, "hybrid", 0.5)).toBeCloseTo((HYBRID_DENSE_WEIGHTS.latin + HYBRID_DENSE_WEIGHTS.cjk) / 2, 12);
    // other scales ignore the script
    expect(relevanceOf({ fact: f, similarity: 0.9 }, "dense", 1)).toBe(relevanceOf({ fact: f, similarity: 0.9 }, "dense", 0));
  });

  it("gates a hybrid recall with its script's gate unless a minScore is given", () => {
    const rank = { k: 3, scale: "hybrid" as const, now: NOW, options };
    expect(selectRecalled([], { ...rank, cjkShare: 0 }).gate.minScore).toBe(HYBRID_SCRIPT_GATES.latin);
    expect(selectRecalled([], { ...rank, cjkShare: 1 }).gate.minScore).toBe(HYBRID_SCRIPT_GATES.cjk);
    expect(selectRecalled([], { ...rank, cjkShare: 1, minScore: 0.5 }).gate.minScore).toBe(0.5);
    expect(DEFAULT_RECALL_GATES.hybrid).toBe(HYBRID_SCRIPT_GATES.latin);
  });
});

describe("selectRecalled (the gate)", () => {
  const a = fact({ id: "a", text: "a", type: "fact" });
  const b = fact({ id: "b", text: "b", type: "preference" });
  const c = fact({ id: "c", text: "c", type: "preference" });
  const rank = { k: 2, minScore: 0.3, scale: "dense" as const, now: NOW, options };

  it("orders by relevance and keeps the best k", () => {
    const ranked = rankRecalled(
      [
        { fact: a, similarity: 0.6 },
        { fact: b, similarity: 0.95 },
        { fact: c, similarity: 0.8 },
      ],
      rank,
    );
    expect(ranked.map((r) => r.fact.id)).toEqual(["b", "c"]);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
  });

  it("passes nothing when no candidate reaches the gate, and says why", () => {
    const outcome = selectRecalled(
      [
        { fact: a, similarity: 0.6 },
        { fact: b, similarity: 0.62 },
      ],
      rank,
    );
    expect(outcome.facts).toEqual([]);
    expect(outcome.dropped.map((d) => [d.id, d.reason, d.passedGate])).toEqual([
      ["b", "below_gate", false],
      ["a", "below_gate", false],
    ]);
    expect(outcome.dropped[0]!.relevance).toBeCloseTo(denseRelevance(0.62), 12);
    expect(outcome.gate).toEqual({ minScore: 0.3, scale: "dense", margin: options.recallMargin });
  });

  it("uses the calibrated gate of the scale by default", () => {
    expect(rankRecalled([{ fact: a, similarity: 0, dense: 1, sparse: 0 }], { ...rank, minScore: undefined, scale: "hybrid" })).toHaveLength(
      1,
    );
    // Normalized cosines just below and at the dense gate (the inverse of denseRelevance).
    const atGate = (1 + DENSE_ZERO_COSINE + DEFAULT_RECALL_GATES.dense * (1 - DENSE_ZERO_COSINE)) / 2;
    expect(rankRecalled([{ fact: a, similarity: atGate - 0.01 }], { ...rank, minScore: undefined, scale: "dense" })).toHaveLength(0);
    expect(rankRecalled([{ fact: a, similarity: atGate + 1e-9 }], { ...rank, minScore: undefined, scale: "dense" })).toHaveLength(1);
  });

  it("filters by type and drops duplicates and expired facts, with reasons", () => {
    const expired = fact({
      id: "t",
      type: "temporary",
      updatedAt: NOW - 2 * 3600_000,
      createdAt: NOW - 2 * 3600_000,
      lastAccessedAt: NOW - 2 * 3600_000,
    });
    const outcome = selectRecalled(
      [
        { fact: a, similarity: 0.9 },
        { fact: b, similarity: 0.9 },
        { fact: b, similarity: 0.9 },
        { fact: expired, similarity: 1 },
      ],
      { ...rank, k: 5, types: ["preference", "temporary"] },
    );
    expect(outcome.facts.map((r) => r.fact.id)).toEqual(["b"]);
    expect(outcome.dropped.map((d) => `${d.id}:${d.reason}`).sort()).toEqual(["a:type", "b:duplicate", "t:expired"]);
  });
});

describe("recall queries", () => {
  it("searches questions about 'the user' in first person", () => {
    expect(recallQueryText("用户叫什么名字?")).toBe("我叫什么名字?");
    expect(recallQueryText("What is the user's name?")).toBe("What is my name?");
  });

  it("searches a first-person question in the voice of learned facts too, as a second wording", () => {
    expect(recallQueryTexts("Where does my sister live?")).toEqual(["Where does my sister live?", "Where does the user's sister live?"]);
    expect(recallQueryTexts("What is the user's job?")).toEqual([
      "What is my job?",
      "What is the user's job?",
      "What is my job? works as job profession became teaches",
    ]);
    expect(recallQueryTexts("我妹妹在哪里工作？")).toEqual(["我妹妹在哪里工作？", "用户的妹妹在哪里工作？"]);
    expect(recallQueryTexts("Give me a haiku about autumn leaves")).toEqual([
      "Give me a haiku about autumn leaves",
      "Give the user a haiku about autumn leaves",
    ]);
    expect(recallQueryTexts("What is the capital of France?")).toEqual(["What is the capital of France?"]);
  });

  it("searches every wording densely and all their words in one sparse query", () => {
    expect(recallQuery("What is the user's job?")).toEqual({
      texts: ["What is my job?", "What is the user's job?", "What is my job? works as job profession became teaches"],
      sparseText: "What is my job? the user's works as job profession became teaches",
    });
    expect(recallQuery("我妹妹在哪里工作？")).toEqual({
      texts: ["我妹妹在哪里工作？", "用户的妹妹在哪里工作？"],
      sparseText: "我妹妹在哪里工作？ 用户的妹妹在哪里工作？",
    });
    expect(recallQuery("What is the capital of France?")).toEqual({
      texts: ["What is the capital of France?"],
      sparseText: "What is the capital of France?",
    });
    expect(unionWords(["a b", "b  c", "", "a d"])).toBe("a b c d");
  });

  it("tells how many query parts a recall sent, when the store says", async () => {
    class CountingStore extends InMemoryFactStore {
      override async query(...args: Parameters<InMemoryFactStore["query"]>) {
        return { ...(await super.query(...args)), queries: 4 };
      }
    }
    const scope = { tenant: "t", userId: "u" };
    const request = { k: 3, now: 0, options: DEFAULT_MEMORY_OPTIONS };
    expect((await recallFrom(new CountingStore(), scope, "Where does my sister live?", request)).queryParts).toBe(4);
    expect((await recallFrom(new InMemoryFactStore(), scope, "Where does my sister live?", request)).queryParts).toBeUndefined();
  });

  it("adds the turns before a short follow-up, and only then", () => {
    const earlier = [
      { role: "system", content: "be kind" },
      { role: "user", content: "My sister Ana lives in Porto" },
      { role: "assistant", content: "Nice! Porto is lovely." },
    ];
    expect(isFollowUp("and her birthday?")).toBe(true);
    expect(isFollowUp("那她的生日呢?")).toBe(true);
    expect(isFollowUp("What is my favourite colour?")).toBe(false);
    expect(turnRecallQuery("and her birthday?", earlier)).toBe("My sister Ana lives in Porto\nNice! Porto is lovely.\nand her birthday?");
    expect(turnRecallQuery("What is my favourite colour?", earlier)).toBe("What is my favourite colour?");
  });
});

describe("lifetimes in recall", () => {
  const rank = { k: 3, minScore: 0.1, scale: "dense" as const, options };
  it("still recalls a preference stated once and never recalled 170 days later; a temporary one is gone after its hour", () => {
    const pref = createFact("p", { text: "prefers aisle seats", type: "preference", importance: 0.5 }, NOW);
    expect(rankRecalled([{ fact: pref, similarity: 0.8 }], { ...rank, now: NOW + 170 * DAY })).toHaveLength(1);
    const temp = createFact("t", { text: "in a meeting", type: "temporary", importance: 0.9 }, NOW);
    expect(rankRecalled([{ fact: temp, similarity: 0.8 }], { ...rank, now: NOW + 59 * 60_000 })).toHaveLength(1);
    expect(selectRecalled([{ fact: temp, similarity: 0.8 }], { ...rank, now: NOW + 61 * 60_000 }).dropped[0]?.reason).toBe("expired");
  });

  it("dates an imported fact back: its lifetime runs from createdAt", () => {
    const old = createFact("o", { text: "likes jazz", type: "preference", importance: 0.5, createdAt: NOW - 181 * DAY }, NOW);
    expect(old.createdAt).toBe(NOW - 181 * DAY);
    expect(rankRecalled([{ fact: old, similarity: 0.9 }], { ...rank, now: NOW })).toEqual([]);
  });
});
