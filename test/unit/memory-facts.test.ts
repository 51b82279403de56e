import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createFact, factId, isSalient, mergeFact, MAX_FACT_HISTORY, normalizeFactText, rankRecalled, scoreRecall } from "../../src/memory/facts.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../src/memory/options.ts";
import type { Fact } from "../../src/memory/types.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);
const scope = { tenant: "acme", userId: "u1" };
const options = DEFAULT_MEMORY_OPTIONS;

function fact(overrides: Partial<Fact> = {}): Fact {
  return { ...createFact("f1", { text: "likes blue", type: "preference", importance: 0.5 }, NOW), ...overrides };
}

describe("normalizeFactText", () => {
  it("folds width, case, whitespace and trailing punctuation", () => {
    expect(normalizeFactText("  I   like\tBLUE!! ")).toBe("i like blue");
    expect(normalizeFactText("ＭＹ ｎａｍｅ ｉｓ Ｍｉｎｇ１２３")).toBe("my name is ming123");
    expect(normalizeFactText("我喜欢蓝色。")).toBe("我喜欢蓝色");
    expect(normalizeFactText("我喜欢蓝色！？")).toBe("我喜欢蓝色");
    expect(normalizeFactText("我喜欢蓝色……")).toBe("我喜欢蓝色");
    expect(normalizeFactText("v1.2 is the version")).toBe("v1.2 is the version");
  });
});

describe("factId", () => {
  it("is f + 24 hex digits of SHA-256(tenant \\0 user \\0 normalized), stable across processes", async () => {
    const expected = "f" + createHash("sha256").update("acme\u0000u1\u0000i like blue").digest("hex").slice(0, 24);
    expect(await factId(scope, "I like blue.")).toBe(expected);
    expect(await factId(scope, "I like blue.")).toMatch(/^f[0-9a-f]{24}$/);
  });

  it("deduplicates texts that normalize alike and separates users and tenants", async () => {
    const id = await factId(scope, "我叫小明。");
    expect(await factId(scope, " 我叫小明 ")).toBe(id);
    expect(await factId(scope, "我叫小明！")).toBe(id);
    expect(await factId({ tenant: "acme", userId: "u2" }, "我叫小明。")).not.toBe(id);
    expect(await factId({ tenant: "globex", userId: "u1" }, "我叫小明。")).not.toBe(id);
    expect(await factId(scope, "我叫小红。")).not.toBe(id);
  });
});

describe("mergeFact", () => {
  it("refreshes a restated fact: newer updatedAt, next version, the higher importance", () => {
    const existing = fact({ importance: 0.7, accessCount: 4 });
    const merged = mergeFact(existing, { text: "Likes blue.", type: "preference", importance: 0.4 }, NOW + DAY);
    expect(merged).toMatchObject({ text: "likes blue", importance: 0.7, updatedAt: NOW + DAY, version: 2, accessCount: 4, createdAt: NOW });
    expect(merged.history).toBeUndefined();
  });

  it("lets the latest statement win and keeps the previous text in history", () => {
    const existing = fact();
    const merged = mergeFact(existing, { text: "likes green now", type: "preference", importance: 0.9, sourceMessage: "m9" }, NOW + DAY);
    expect(merged).toMatchObject({ id: "f1", text: "likes green now", importance: 0.9, version: 2, sourceMessage: "m9" });
    expect(merged.history).toEqual([{ text: "likes blue", updatedAt: NOW }]);
  });

  it("caps the history", () => {
    let current = fact();
    for (let i = 0; i < MAX_FACT_HISTORY + 5; i++) current = mergeFact(current, { text: `version ${i}`, type: "fact", importance: 0.5 }, NOW + i);
    expect(current.history).toHaveLength(MAX_FACT_HISTORY);
    expect(current.history?.at(-1)?.text).toBe(`version ${MAX_FACT_HISTORY + 3}`);
  });
});

describe("isSalient", () => {
  it.each([
    ["我叫小明，喜欢蓝色", "preference", true],
    ["我叫小明", "fact", true],
    ["请记住：我对花生过敏", "fact", true],
    ["My name is Ada Lovelace", "fact", true],
    ["I prefer tea over coffee", "preference", true],
    ["I’m allergic to peanuts", "fact", true],
    ["I always fly economy", "fact", true],
    ["我今天有点累", "context", true],
    ["今天天气不错", "context", false],
    ["你记得我叫什么吗？", "context", false],
    ["Do you remember my name?", "context", false],
    ["what is the weather like", "context", false],
    ["好的，谢谢", "context", false],
  ] as const)("%s -> %s", (text, type, salient) => {
    const result = isSalient(text);
    expect(result.salient).toBe(salient);
    expect(result.type).toBe(type);
  });

  it("rates health and emphasised statements above small talk", () => {
    expect(isSalient("I'm allergic to peanuts").importance).toBeGreaterThanOrEqual(0.9);
    expect(isSalient("remember: I like jazz").importance).toBeGreaterThan(isSalient("I like jazz").importance);
    expect(isSalient("我今天有点累").importance).toBeLessThan(0.5);
  });
});

describe("scoreRecall", () => {
  it("is 0.6 similarity + 0.25 value + 0.15 recency", () => {
    const f = fact({ importance: 0.8 });
    expect(scoreRecall({ similarity: 0.9, fact: f, now: NOW, options })).toBeCloseTo(0.6 * 0.9 + 0.25 * 0.8 + 0.15, 10);
    // 30 days later (one recency half-life): value decays at 0.95/day for a preference
    const later = NOW + 30 * DAY;
    expect(scoreRecall({ similarity: 0.9, fact: f, now: later, options })).toBeCloseTo(0.54 + 0.25 * 0.8 * 0.95 ** 30 + 0.075, 10);
  });

  it("prefers the more similar, then the more important, then the fresher", () => {
    const base = fact();
    const s = (similarity: number, f: Fact = base, now = NOW) => scoreRecall({ similarity, fact: f, now, options });
    expect(s(0.9)).toBeGreaterThan(s(0.8));
    expect(s(0.8, fact({ importance: 0.9 }))).toBeGreaterThan(s(0.8));
    expect(s(0.8, base, NOW)).toBeGreaterThan(s(0.8, base, NOW + 10 * DAY));
    expect(s(0.3, fact({ importance: 1, accessCount: 100 }))).toBeLessThan(s(0.9, fact({ importance: 0.1 })));
  });

  it("stays within 0..1 for any input", () => {
    for (const similarity of [-1, 0, 0.5, 1, 7, Number.NaN]) {
      const score = scoreRecall({ similarity, fact: fact({ importance: 1, accessCount: 1000 }), now: NOW, options });
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
  });
});

describe("rankRecalled", () => {
  const a = fact({ id: "a", text: "a", type: "fact" });
  const b = fact({ id: "b", text: "b", type: "preference" });
  const c = fact({ id: "c", text: "c", type: "preference" });
  const rank = { k: 2, minScore: 0.5, now: NOW, options };

  it("returns the best k above the minimum score, highest first", () => {
    const ranked = rankRecalled(
      [
        { fact: a, similarity: 0.5 },
        { fact: b, similarity: 0.95 },
        { fact: c, similarity: 0.7 },
      ],
      rank,
    );
    expect(ranked.map((r) => r.fact.id)).toEqual(["b", "c"]);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
    expect(rankRecalled([{ fact: a, similarity: 0.1 }], rank)).toEqual([]);
  });

  it("filters by type and drops duplicates, expired and decayed facts", () => {
    const expired = fact({ id: "t", type: "temporary", updatedAt: NOW - 2 * 3600_000, createdAt: NOW - 2 * 3600_000, lastAccessedAt: NOW - 2 * 3600_000 });
    const ranked = rankRecalled(
      [
        { fact: a, similarity: 0.9 },
        { fact: b, similarity: 0.9 },
        { fact: b, similarity: 0.9 },
        { fact: expired, similarity: 1 },
      ],
      { ...rank, k: 5, types: ["preference", "temporary"] },
    );
    expect(ranked.map((r) => r.fact.id)).toEqual(["b"]);
  });
});
