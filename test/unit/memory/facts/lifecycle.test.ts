import { describe, expect, it } from "vitest";
import { createFact } from "../../../../src/memory/facts/identity.ts";
import { factValue, isExpired, recordAccess, shouldRetain } from "../../../../src/memory/facts/lifecycle.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import type { Fact, FactType } from "../../../../src/memory/model.ts";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const options = DEFAULT_MEMORY_OPTIONS;

const fact = (type: FactType, importance = 0.8, overrides: Partial<Fact> = {}): Fact => ({
  ...createFact("f", { text: "x", type, importance }, T0),
  ...overrides,
});

describe("factValue", () => {
  it("is importance x decay^days at the per-type rates", () => {
    expect(factValue(fact("preference"), T0 + 10 * DAY, options)).toBeCloseTo(0.8 * 0.95 ** 10, 12);
    expect(factValue(fact("fact"), T0 + 100 * DAY, options)).toBeCloseTo(0.8 * 0.99 ** 100, 12);
    expect(factValue(fact("context"), T0 + 3 * DAY, options)).toBeCloseTo(0.8 * 0.8 ** 3, 12);
    expect(factValue(fact("experience"), T0 + 10 * DAY, options)).toBeCloseTo(0.8 * 0.97 ** 10, 12);
    // fractional days: a temporary fact loses value within hours
    expect(factValue(fact("temporary"), T0 + DAY / 2, options)).toBeCloseTo(0.8 * 0.5 ** 0.5, 12);
  });

  it("adds min(0.3, accessCount x 0.01) and caps the total at 1", () => {
    expect(factValue(fact("fact", 0.5, { accessCount: 10 }), T0, options)).toBeCloseTo(0.6, 12);
    expect(factValue(fact("fact", 0.5, { accessCount: 500 }), T0, options)).toBeCloseTo(0.8, 12);
    expect(factValue(fact("fact", 0.95, { accessCount: 500 }), T0, options)).toBe(1);
  });

  it("counts age from the last write or recall, so a used memory does not fade", () => {
    const recalled = fact("preference", 0.8, { lastAccessedAt: T0 + 90 * DAY });
    expect(factValue(recalled, T0 + 90 * DAY, options)).toBeCloseTo(0.8, 12);
    expect(factValue(fact("preference"), T0 + 90 * DAY, options)).toBeLessThan(0.01);
  });
});

describe("isExpired and shouldRetain", () => {
  it("expires each type after its TTL since the last write", () => {
    expect(isExpired(fact("temporary"), T0 + 3600_000, options)).toBe(false);
    expect(isExpired(fact("temporary"), T0 + 3600_001, options)).toBe(true);
    expect(isExpired(fact("context"), T0 + 7 * DAY + 1, options)).toBe(true);
    expect(isExpired(fact("fact"), T0 + 364 * DAY, options)).toBe(false);
    expect(isExpired(fact("fact"), T0 + 366 * DAY, options)).toBe(true);
    // a restatement (updatedAt) renews the lifetime; a recall does not
    expect(isExpired(fact("temporary", 0.8, { updatedAt: T0 + 3600_000 }), T0 + 2 * 3600_000, options)).toBe(false);
    expect(isExpired(fact("temporary", 0.8, { lastAccessedAt: T0 + 3600_000 }), T0 + 2 * 3600_000, options)).toBe(true);
  });

  it("keeps every fact its type's whole lifetime unless it is explicitly low-importance", () => {
    // the stated lifetimes: fact ~365 d, preference ~180 d, context ~7 d, temporary 1 h
    expect(shouldRetain(fact("preference", 0.5), T0 + 170 * DAY, options)).toBe(true);
    expect(shouldRetain(fact("preference", 0.5), T0 + 181 * DAY, options)).toBe(false);
    expect(shouldRetain(fact("fact", 0.5), T0 + 360 * DAY, options)).toBe(true);
    expect(shouldRetain(fact("fact", 0.9), T0 + 366 * DAY, options)).toBe(false);
    expect(shouldRetain(fact("context", 0.5), T0 + 6.9 * DAY, options)).toBe(true);
    expect(shouldRetain(fact("context", 0.5), T0 + 7.1 * DAY, options)).toBe(false);
    expect(shouldRetain(fact("experience", 0.5), T0 + 89 * DAY, options)).toBe(true);
    expect(shouldRetain(fact("temporary", 0.5), T0 + 59 * 60_000, options)).toBe(true);
    expect(shouldRetain(fact("temporary", 0.5), T0 + 61 * 60_000, options)).toBe(false);
  });

  it("lets a low-importance fact decay away before its TTL", () => {
    // 0.2 x 0.8^6 = 0.052 < 0.1: below lowImportance (0.3) the decay floor applies
    expect(shouldRetain(fact("context", 0.2), T0 + 6 * DAY, options)).toBe(false);
    expect(shouldRetain(fact("context", 0.2), T0, options)).toBe(true);
    expect(shouldRetain(fact("preference", 0.2), T0 + 60 * DAY, options)).toBe(false);
  });
});

describe("recordAccess", () => {
  it("counts the recall and moves lastAccessedAt forward only", () => {
    const f = recordAccess(fact("fact"), T0 + DAY);
    expect(f).toMatchObject({ accessCount: 1, lastAccessedAt: T0 + DAY, updatedAt: T0, version: 1 });
    expect(recordAccess(f, T0).lastAccessedAt).toBe(T0 + DAY);
  });
});
