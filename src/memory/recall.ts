import { factValue, lastTouched, shouldRetain } from "./lifecycle.ts";
import type { MemoryOptions } from "./options.ts";
import type { Fact, FactType, RecalledFact } from "./types.ts";

const DAY_MS = 86_400_000;

/** Weights of the recall score; they sum to 1 so the score stays within 0..1. */
export const RECALL_WEIGHTS = { similarity: 0.6, value: 0.25, recency: 0.15 } as const;

type ScoreOptions = Pick<MemoryOptions, "factPolicies" | "decayFloor" | "recencyHalfLifeDays">;

/**
 * Recall score in 0..1: 0.6 x similarity + 0.25 x value + 0.15 x recency, where value is
 * `factValue` (importance, type decay, use) and recency halves every `recencyHalfLifeDays` since
 * the fact was last written or recalled. Similarity is the store's 0..1 score as given (for
 * Upstash COSINE indexes (1 + cos) / 2, so 0.5 means unrelated). It dominates: an unrelated fact
 * cannot outrank a clearly similar one on importance alone, yet of two equally similar facts the
 * more valuable and fresher one ranks first.
 */
export function scoreRecall(input: { similarity: number; fact: Fact; now: number; options: ScoreOptions }): number {
  const { fact, now, options } = input;
  const similarity = Number.isFinite(input.similarity) ? Math.min(1, Math.max(0, input.similarity)) : 0;
  const days = Math.max(0, now - lastTouched(fact)) / DAY_MS;
  const recency = Math.pow(0.5, days / Math.max(1e-9, options.recencyHalfLifeDays));
  const score =
    RECALL_WEIGHTS.similarity * similarity +
    RECALL_WEIGHTS.value * factValue(fact, now, options) +
    RECALL_WEIGHTS.recency * recency;
  return Math.min(1, Math.max(0, score));
}

export interface RecallCandidate {
  fact: Fact;
  similarity: number;
}

export interface RankOptions {
  /** How many to return. */
  k: number;
  /** Drop candidates scoring below this. */
  minScore: number;
  /** Only these types, when given. */
  types?: readonly FactType[] | undefined;
  now: number;
  options: ScoreOptions;
}

/**
 * The best `k` candidates by score, highest first. Facts past their TTL or decayed below the floor
 * are left out even before the sweep removes them.
 */
export function rankRecalled(candidates: readonly RecallCandidate[], rank: RankOptions): RecalledFact[] {
  const types = rank.types && rank.types.length > 0 ? new Set(rank.types) : null;
  const seen = new Set<string>();
  const scored: RecalledFact[] = [];
  for (const { fact, similarity } of candidates) {
    if (seen.has(fact.id) || (types && !types.has(fact.type))) continue;
    if (!shouldRetain(fact, rank.now, rank.options)) continue;
    seen.add(fact.id);
    const score = scoreRecall({ similarity, fact, now: rank.now, options: rank.options });
    if (score >= rank.minScore) scored.push({ fact, similarity, score });
  }
  scored.sort((a, b) => b.score - a.score || b.similarity - a.similarity || a.fact.id.localeCompare(b.fact.id));
  return scored.slice(0, Math.max(0, Math.floor(rank.k)));
}
