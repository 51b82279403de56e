/** @module Response helpers shared by routes: round scores and ratios to 4 decimals in stats, summaries and recalled facts. */
import type { CompressResult } from "../memory/sessions/index.ts";
import type { RecalledFact, Summary } from "../memory/model.ts";
import type { WindowStats } from "../memory/context/index.ts";

/**
 * Response conventions shared by every route: scores and ratios are rounded to 4 decimals (a
 * float's last digits are noise, `0.6799999999999999` prints as `0.68`); timestamps are epoch ms
 * as stored.
 */

/** Rounds a score or ratio to 4 decimals. */
export const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

export function statsView(stats: WindowStats): WindowStats {
  return { ...stats, utilization: round4(stats.utilization), avgImportance: round4(stats.avgImportance) };
}

export function summaryView(summary: Summary | null): Summary | null {
  return summary === null ? null : { ...summary, lastRatio: round4(summary.lastRatio) };
}

export function compressView(result: CompressResult): CompressResult {
  return result.compressed ? { ...result, ratio: round4(result.ratio) } : result;
}

/** A recalled fact as the context and recall routes list it: the fact's fields, then its scores. */
export function recalledView(r: RecalledFact): RecalledFact["fact"] & { score: number; similarity: number } {
  return { ...r.fact, score: round4(r.score), similarity: round4(r.similarity) };
}
