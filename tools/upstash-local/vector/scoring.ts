import type { SimilarityFunction } from "./config.ts";

/**
 * Scores a stored row against a query. `matrix` holds rows of `query.length` values; the row starts
 * at `offset`; `rowNorm2` is that row's precomputed squared norm.
 */
export type RowScorer = (matrix: Float64Array, offset: number, rowNorm2: number) => number;

/** Squared L2 norm, summed in index order (the same order as the dot products below). */
export function squaredNorm(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i += 1) {
    const x = v[i] ?? 0;
    s += x * x;
  }
  return s;
}

/**
 * Upstash's normalized scores (reference B4), higher is more similar:
 * - COSINE `(1 + cos) / 2`, with cos = `dot / sqrt(|a|²·|b|²)` so that a vector scored against
 *   itself gives exactly 1 (`sqrt(x·x) === x` in IEEE arithmetic; two square roots would not be exact).
 *   A zero vector has no direction: its cosine is taken as 0, i.e. score 0.5.
 * - EUCLIDEAN `1 / (1 + squared distance)`, the distance summed directly (no cancellation).
 * - DOT_PRODUCT `(1 + dot) / 2`. Vectors are expected to be unit length; other vectors are not
 *   clamped, so the ranking stays meaningful even though the score leaves 0..1.
 */
export function makeScorer(similarity: SimilarityFunction, query: Float64Array): RowScorer {
  const dim = query.length;
  if (similarity === "EUCLIDEAN") {
    return (m, off) => {
      let d = 0;
      for (let i = 0; i < dim; i += 1) {
        const x = (query[i] as number) - (m[off + i] as number);
        d += x * x;
      }
      return 1 / (1 + d);
    };
  }
  const queryNorm2 = squaredNorm(query);
  const dot = (m: Float64Array, off: number): number => {
    let s = 0;
    for (let i = 0; i < dim; i += 1) s += (query[i] as number) * (m[off + i] as number);
    return s;
  };
  if (similarity === "DOT_PRODUCT") return (m, off) => (1 + dot(m, off)) / 2;
  return (m, off, rowNorm2) => {
    const denom = Math.sqrt(queryNorm2 * rowNorm2);
    if (denom === 0) return 0.5;
    const cos = dot(m, off) / denom;
    return (1 + (cos > 1 ? 1 : cos < -1 ? -1 : cos)) / 2;
  };
}
