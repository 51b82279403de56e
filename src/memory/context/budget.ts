/** @module Token budget: hands the context budget to pinned system messages, summary, facts and window in priority order. */
import type { BudgetShares } from "../options.ts";

/** Token caps of the context sections for one budget. */
export interface BudgetPlan {
  total: number;
  /** Held back for the model's reply. */
  reserve: number;
  /** total - reserve: what the context may fill. */
  available: number;
  /** Per-section caps (share x total, rounded down). The window also gets what others leave. */
  caps: { system: number; summary: number; facts: number; window: number };
}

/** What an assembled context actually used of its budget. */
export interface BudgetReport extends BudgetPlan {
  /** Tokens the window was allowed after system, summary and facts took theirs. */
  windowAllowance: number;
  /** Tokens the context uses. */
  used: number;
  /** True when the pinned system messages alone exceed `available` (they are never dropped). */
  overBudget: boolean;
}

export function planBudget(total: number, shares: BudgetShares): BudgetPlan {
  const budget = Number.isFinite(total) ? Math.max(0, Math.floor(total)) : 0;
  const cap = (share: number) => Math.floor(budget * share);
  const reserve = cap(shares.reply);
  return {
    total: budget,
    reserve,
    available: budget - reserve,
    caps: { system: cap(shares.system), summary: cap(shares.summary), facts: cap(shares.facts), window: cap(shares.window) },
  };
}

/**
 * Hands out the available tokens in priority order: pinned system messages take what they need
 * (never cut), then summary and facts up to their caps, and the window everything left.
 */
export class BudgetLedger {
  readonly plan: BudgetPlan;
  #used = 0;

  constructor(plan: BudgetPlan) {
    this.plan = plan;
  }

  get remaining(): number {
    return Math.max(0, this.plan.available - this.#used);
  }

  get used(): number {
    return this.#used;
  }

  /** Tokens a capped section may take now. */
  allowance(section: "summary" | "facts"): number {
    return Math.min(this.plan.caps[section], this.remaining);
  }

  spend(tokens: number): void {
    this.#used += tokens;
  }

  report(windowAllowance: number, systemTokens: number): BudgetReport {
    return { ...this.plan, windowAllowance, used: this.#used, overBudget: systemTokens > this.plan.available };
  }
}
