/** Hybrid score fusion (reference B4, upstash/docs `hybridindexes.mdx`). */
export type FusionAlgorithm = "RRF" | "DBSF";

export interface Ranked<R> {
  record: R;
  score: number;
}

/** RRF's constant: a list's first result maps to 1/60 (the live service counts ranks from 0). */
export const RRF_K = 60;

/**
 * Fuses a dense and a sparse ranking (each best first). A record in both lists gets the sum of
 * its two mapped scores, a record in one list keeps its one mapped score:
 * - `RRF`: the result at rank r (0-based) maps to `1 / (r + 60)`. Rank 0 is what the SDK tests'
 *   expected scores show: 0.033333335 = 1/60 + 1/60 for a record first in both lists.
 * - `DBSF`: each score maps to `(s − (μ − 3σ)) / ((μ + 3σ) − (μ − 3σ))` over its own list, with σ
 *   the sample standard deviation; a list of one score (or of equal scores) maps to 0.5. Both
 *   choices reproduce the live service's 0.617851 and 0.5 in the SDK's resumable hybrid test.
 * The result is sorted best first; ties keep the order of `tieOrder` (lower first).
 */
export function fuse<R>(dense: Ranked<R>[], sparse: Ranked<R>[], algorithm: FusionAlgorithm, tieOrder: (r: R) => number): Ranked<R>[] {
  const map = algorithm === "RRF" ? rrf : dbsf;
  const total = new Map<R, number>();
  for (const list of [dense, sparse]) {
    const mapped = map(list);
    list.forEach((hit, i) => {
      total.set(hit.record, (total.get(hit.record) ?? 0) + (mapped[i] ?? 0));
    });
  }
  return [...total]
    .map(([record, score]) => ({ record, score }))
    .sort((a, b) => b.score - a.score || tieOrder(a.record) - tieOrder(b.record));
}

function rrf<R>(list: Ranked<R>[]): number[] {
  return list.map((_, rank) => 1 / (rank + RRF_K));
}

function dbsf<R>(list: Ranked<R>[]): number[] {
  const n = list.length;
  if (n < 2) return list.map(() => 0.5);
  const mean = list.reduce((s, h) => s + h.score, 0) / n;
  const variance = list.reduce((s, h) => s + (h.score - mean) ** 2, 0) / (n - 1);
  const sigma = Math.sqrt(variance);
  if (!(sigma > 0)) return list.map(() => 0.5);
  const low = mean - 3 * sigma;
  const high = mean + 3 * sigma;
  return list.map((h) => (h.score - low) / (high - low));
}
