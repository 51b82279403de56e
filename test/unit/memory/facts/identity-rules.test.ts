import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createFact, factId, mergeFact, MAX_FACT_HISTORY, refreshOf, normalizeFactText } from "../../../../src/memory/facts/identity.ts";
import type { Fact } from "../../../../src/memory/model.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);
const scope = { tenant: "acme", userId: "u1" };

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
    const expected = `f${createHash("sha256").update("acme\u0000u1\u0000i like blue").digest("hex").slice(0, 24)}`;
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
    for (let i = 0; i < MAX_FACT_HISTORY + 5; i++)
      current = mergeFact(current, { text: `version ${i}`, type: "fact", importance: 0.5 }, NOW + i);
    expect(current.history).toHaveLength(MAX_FACT_HISTORY);
    expect(current.history?.at(-1)?.text).toBe(`version ${MAX_FACT_HISTORY + 3}`);
  });
});

describe("refreshOf (a restatement the store knows unread)", () => {
  const known = { id: "f1", version: 3, importance: 0.7, createdAt: NOW, updatedAt: NOW + DAY };
  const restated = (over: Partial<Fact> = {}): Fact => ({
    ...createFact("f1", { text: "likes blue", type: "preference", importance: 0.5 }, NOW + 2 * DAY),
    ...over,
  });

  it("is what mergeFact changes when the statement adds nothing: next version, newer updatedAt", () => {
    const holder = { ...fact({ importance: 0.7, version: 3, updatedAt: NOW + DAY }) };
    const merged = mergeFact(holder, restated(), NOW + 2 * DAY);
    expect(refreshOf(known, restated())).toEqual({ id: "f1", version: merged.version, updatedAt: merged.updatedAt });
    // a queued statement older than the fact's last write does not move updatedAt back
    expect(refreshOf(known, restated({ createdAt: NOW, updatedAt: NOW }))?.updatedAt).toBe(NOW + DAY);
  });

  it("is null when the statement adds something: a higher importance, metadata, or an earlier date", () => {
    expect(refreshOf(known, restated({ importance: 0.9 }))).toBeNull();
    expect(refreshOf(known, restated({ metadata: { source: "import" } }))).toBeNull();
    expect(refreshOf(known, restated({ createdAt: NOW - DAY, updatedAt: NOW - DAY }))).toBeNull();
  });
});
