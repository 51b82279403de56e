/** @module Inverted index over one namespace's sparse vectors, and Upstash's IDF weight. */
import type { SparseVector } from "./sparse-vector.ts";

/**
 * An inverted index over the sparse parts of one namespace: for every dimension, the records with
 * a non-zero value there. A query touches only the posting lists of its own dimensions, so sparse
 * scoring is exact (Upstash: "the similarity scores are exact, not approximate") and cheap.
 * Zero values are stored with the record but not posted: they neither score nor count for IDF.
 */
export class SparsePostings<R> {
  readonly #lists = new Map<number, Map<R, number>>();

  add(record: R, vector: SparseVector): void {
    vector.indices.forEach((index, i) => {
      const value = vector.values[i] ?? 0;
      if (value === 0) return;
      let list = this.#lists.get(index);
      if (!list) {
        list = new Map();
        this.#lists.set(index, list);
      }
      list.set(record, value);
    });
  }

  remove(record: R, vector: SparseVector): void {
    for (const index of vector.indices) {
      const list = this.#lists.get(index);
      if (!list) continue;
      list.delete(record);
      if (list.size === 0) this.#lists.delete(index);
    }
  }

  clear(): void {
    this.#lists.clear();
  }

  /** How many records have a non-zero value in this dimension: n(q) of the IDF formula. */
  documentFrequency(index: number): number {
    return this.#lists.get(index)?.size ?? 0;
  }

  /**
   * Inner products over shared dimensions, each query value multiplied by `weight(index)` when
   * given. Records sharing no dimension with the query are absent from the result.
   */
  score(query: SparseVector, weight?: (index: number) => number): Map<R, number> {
    const scores = new Map<R, number>();
    query.indices.forEach((index, i) => {
      const list = this.#lists.get(index);
      const q = query.values[i] ?? 0;
      if (!list || q === 0) return;
      const w = weight ? q * weight(index) : q;
      for (const [record, value] of list) scores.set(record, (scores.get(record) ?? 0) + w * value);
    });
    return scores;
  }
}

/**
 * Upstash's IDF weight, `ln((N − n + 0.5) / (n + 0.5) + 1)` with N records in the namespace and n of
 * them having the dimension. This is the form in the official client's `WeightingStrategy.IDF`
 * docs, and the one the live service follows: the vector-js tests' expected scores (0.028608438,
 * 0.018800145, 0.26666638) come out of it exactly. The docs page's form without "+ 1" would go
 * negative for dimensions in more than half of the records and reverse those tests' rankings.
 * The "+ 1" keeps every weight positive, so no clamping is needed.
 */
export const idfWeight = (total: number, withIndex: number): number => Math.log((total - withIndex + 0.5) / (withIndex + 0.5) + 1);
