/** @module Fact lifecycle: value decay, TTL expiry and the single rule for which facts are still alive. */
import type { FactTypePolicy, MemoryOptions } from "../options.ts";
import type { Fact } from "../model.ts";

const DAY_MS = 86_400_000;

type LifecycleOptions = Pick<MemoryOptions, "factPolicies" | "decayFloor"> & Partial<Pick<MemoryOptions, "lowImportance">>;

function policyOf(fact: Fact, options: LifecycleOptions): FactTypePolicy {
  // Facts read back from a store may carry a type this version does not know.
  return options.factPolicies[fact.type] ?? options.factPolicies.context;
}

/**
 * When the fact was last confirmed: written, restated or recalled. Decay runs from here, so a
 * memory that keeps being used stays valuable however old it is (the seed's `created_at` would
 * let a preference recalled every day fade to nothing within months).
 */
export function lastTouched(fact: Fact): number {
  return Math.max(fact.createdAt, fact.updatedAt, fact.lastAccessedAt);
}

/**
 * Current value of a fact: importance x decay^days + min(0.3, accessCount x 0.01),
 * capped at 1. Days are fractional and counted from {@link lastTouched}.
 */
export function factValue(fact: Fact, now: number, options: LifecycleOptions): number {
  const days = Math.max(0, now - lastTouched(fact)) / DAY_MS;
  const decayed = fact.importance * policyOf(fact, options).decayPerDay ** days;
  const boost = Math.min(0.3, Math.max(0, fact.accessCount) * 0.01);
  return Math.min(1, Math.max(0, decayed + boost));
}

/** Past its type's TTL, counted from the last write (a restated fact lives on; a recall does not extend it). */
export function isExpired(fact: Fact, now: number, options: LifecycleOptions): boolean {
  return now - fact.updatedAt > policyOf(fact, options).ttlSeconds * 1000;
}

/**
 * The one rule of what lives: recall hides exactly what the cron's sweep deletes. A fact lives its
 * type's whole TTL (fact ~365 d, preference ~180 d, context ~7 d, temporary 1 h, experience 90 d);
 * decay below the floor ends it earlier only when it is explicitly low-importance (below
 * `lowImportance`, default 0.3). Decay otherwise only orders facts, it never hides them.
 */
export function shouldRetain(fact: Fact, now: number, options: LifecycleOptions): boolean {
  if (isExpired(fact, now, options)) return false;
  if (fact.importance >= (options.lowImportance ?? 0.3)) return true;
  return factValue(fact, now, options) > options.decayFloor;
}

/** The fact after one more recall (access stats are patched in the background). */
export function recordAccess(fact: Fact, now: number): Fact {
  return { ...fact, accessCount: fact.accessCount + 1, lastAccessedAt: Math.max(fact.lastAccessedAt, now) };
}
