import { describe, expect, it } from "vitest";
import { BudgetLedger, planBudget } from "../../../src/memory/context/budget.ts";
import { DEFAULT_MEMORY_OPTIONS, resolveSessionOptions } from "../../../src/memory/options.ts";

describe("memory options", () => {
  it("has documented, valid defaults whose shares sum to 1", () => {
    const d = DEFAULT_MEMORY_OPTIONS;
    expect(d).toMatchObject({ window: 0, maxTokens: 2000, keep: 4, budget: 8000, importanceThreshold: 0.3, summaryMaxTokens: 500 });
    expect(d.shares).toEqual({ system: 0.15, summary: 0.1, facts: 0.3, window: 0.4, reply: 0.05 });
    const sum = Object.values(d.shares).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 9);
    expect(d.factPolicies.temporary).toEqual({ ttlSeconds: 3600, decayPerDay: 0.5 });
    expect(d.factPolicies.fact.ttlSeconds).toBe(365 * 86_400);
    // shared by every request of an isolate, so nobody may change them in place
    expect(Object.isFrozen(d) && Object.isFrozen(d.shares) && Object.isFrozen(d.factPolicies.fact)).toBe(true);
  });

  it("lays a session's own settings over the defaults", () => {
    const resolved = resolveSessionOptions(DEFAULT_MEMORY_OPTIONS, { window: 20, keep: 6, ttlSeconds: 60 });
    expect(resolved).toMatchObject({ window: 20, keep: 6, maxTokens: 2000, sessionTtlSeconds: 60 });
    expect(resolveSessionOptions(DEFAULT_MEMORY_OPTIONS, {})).toEqual(DEFAULT_MEMORY_OPTIONS);
  });
});

describe("budget", () => {
  it("turns shares into caps and holds back the reply reserve", () => {
    expect(planBudget(8000, DEFAULT_MEMORY_OPTIONS.shares)).toEqual({
      total: 8000,
      reserve: 400,
      available: 7600,
      caps: { system: 1200, summary: 800, facts: 2400, window: 3200 },
    });
  });

  it("treats an unusable budget as 0", () => {
    expect(planBudget(Number.NaN, DEFAULT_MEMORY_OPTIONS.shares)).toMatchObject({ total: 0, available: 0 });
    expect(planBudget(-5, DEFAULT_MEMORY_OPTIONS.shares)).toMatchObject({ total: 0, available: 0 });
  });

  it("gives capped sections at most their cap and never more than what is left", () => {
    const ledger = new BudgetLedger(planBudget(1000, DEFAULT_MEMORY_OPTIONS.shares));
    expect(ledger.allowance("facts")).toBe(300);
    ledger.spend(800); // e.g. a long system prompt
    expect(ledger.allowance("facts")).toBe(150);
    expect(ledger.allowance("summary")).toBe(100);
    ledger.spend(500);
    expect(ledger.remaining).toBe(0);
    expect(ledger.report(0, 1300)).toMatchObject({ used: 1300, overBudget: true });
  });
});
