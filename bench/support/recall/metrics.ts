import type { FactType } from "../../../src/memory/model.ts";
import type { DatasetFact, DatasetQuery } from "../../data/recall/schema.ts";

/** The k of recall@k. Each is asked for separately: a retriever's depth may depend on k. */
export const CUTOFFS = [1, 5, 10] as const;
export type Cutoff = (typeof CUTOFFS)[number];
type PerCutoff = Record<Cutoff, number>;

/** One query's answers from one retriever: the ranked ids returned for each cutoff. */
export interface Ranked {
  query: DatasetQuery;
  lists: Record<Cutoff, string[]>;
}

/**
 * recall@k: share of the expected facts in the top k, averaged; mrr: 1 / rank of the first
 * expected fact within the top 10 (0 when none is there), averaged.
 */
export interface Figures {
  n: number;
  recall: PerCutoff;
  mrr: number;
  /** Share of queries with an expected fact in the top 3 (of the top-5 list); per-query figures only. */
  hit3?: number;
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? Number.NaN : xs.reduce((s, x) => s + x, 0) / xs.length);
const perCutoff = (f: (k: Cutoff) => number): PerCutoff => Object.fromEntries(CUTOFFS.map((k) => [k, f(k)])) as PerCutoff;
const topOf = (r: Ranked, k: Cutoff): string[] => r.lists[k].slice(0, k);
const deepest = (r: Ranked): string[] => r.lists[CUTOFFS[CUTOFFS.length - 1] ?? 10];
const reciprocalRank = (list: readonly string[], wanted: (id: string) => boolean): number => {
  const at = list.findIndex(wanted);
  return at < 0 ? 0 : 1 / (at + 1);
};

function figures(rows: readonly { recall: PerCutoff; rr: number }[]): Figures {
  const recall = perCutoff((k) => mean(rows.map((r) => r.recall[k])));
  return { n: rows.length, recall, mrr: mean(rows.map((r) => r.rr)) };
}

/** Per query: recall@k over its expected facts, and the reciprocal rank of its first hit. */
export function queryFigures(ranked: readonly Ranked[]): Figures {
  const hit3 = mean(ranked.map((r) => (r.lists[5].slice(0, 3).some((id) => r.query.answers.includes(id)) ? 1 : 0)));
  return {
    ...figures(
      ranked.map((r) => {
        const expected = new Set(r.query.answers);
        const recall = perCutoff((k) => topOf(r, k).filter((id) => expected.has(id)).length / expected.size);
        return { recall, rr: reciprocalRank(deepest(r), (id) => expected.has(id)) };
      }),
    ),
    hit3,
  };
}

/**
 * Per expected fact of one type (a multi-answer query counts once per answer): whether that fact
 * is in the top k, and its own reciprocal rank. For single-answer queries this is the per-query form.
 */
export function answerFigures(ranked: readonly Ranked[], facts: ReadonlyMap<string, DatasetFact>, type: FactType): Figures {
  const rows = ranked.flatMap((r) =>
    r.query.answers
      .filter((id) => facts.get(id)?.type === type)
      .map((id) => ({
        recall: perCutoff((k) => (topOf(r, k).includes(id) ? 1 : 0)),
        rr: reciprocalRank(deepest(r), (x) => x === id),
      })),
  );
  return figures(rows);
}

/** What a context injects: for unrelated queries (should be nothing) and related ones (should be the answer). */
export interface InjectionFigures {
  /** (unrelated query, persona) pairs asked. */
  unrelated: number;
  /** Share of those with nothing injected. */
  abstained: number;
  related: number;
  /** Share of related queries with something injected. */
  answered: number;
  /** Share of related queries whose injection holds at least one expected fact. */
  hit: number;
}

export function injectionFigures(
  unrelated: readonly string[][],
  related: readonly { query: DatasetQuery; injected: string[] }[],
): InjectionFigures {
  return {
    unrelated: unrelated.length,
    abstained: mean(unrelated.map((ids) => (ids.length === 0 ? 1 : 0))),
    related: related.length,
    answered: mean(related.map((r) => (r.injected.length > 0 ? 1 : 0))),
    hit: mean(related.map((r) => (r.injected.some((id) => r.query.answers.includes(id)) ? 1 : 0))),
  };
}

/** Relative change of `dated` against `undated` in percent; null when undated is 0 or not a number. */
export const gapPercent = (dated: number, undated: number): number | null =>
  Number.isFinite(undated) && undated !== 0 && Number.isFinite(dated) ? ((dated - undated) / undated) * 100 : null;
