/** @module BM25 sparse vectors for documents and queries, as Upstash computes them for sparse and hybrid indexes. */
import type { Bm25Options } from "./config.ts";
import type { SparseVector } from "./sparse-vector.ts";
import { termId, textTerms } from "./terms.ts";

/**
 * The BM25 sparse model behind `upsert-data` / `query-data` on sparse and hybrid indexes, as
 * Upstash describes its own: a document term gets `f·(k1+1) / (f + k1·(1 − b + b·|D|/avg|D|))`
 * with fixed k1, b and avg|D| (so embedding a document needs no corpus statistics); a query term
 * gets 1 (presence). The IDF part of BM25 is applied at query time by `weightingStrategy: "IDF"`,
 * from the index's own counts. Terms become ids by {@link termId}; entries are sorted by index.
 */
export function bm25Document(text: string, options: Bm25Options): SparseVector {
  const terms = textTerms(text, options);
  const counts = countIds(terms);
  const { k1, b, avgDocLength } = options;
  const norm = k1 * (1 - b + (b * terms.length) / avgDocLength);
  return toSparse(counts, (f) => (f * (k1 + 1)) / (f + norm));
}

export function bm25Query(text: string, options: Bm25Options): SparseVector {
  return toSparse(countIds(textTerms(text, options)), () => 1);
}

/** Terms that hash to the same id are one dimension: their counts add up. */
function countIds(terms: string[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const term of terms) {
    const id = termId(term);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

function toSparse(counts: Map<number, number>, weight: (count: number) => number): SparseVector {
  const indices = [...counts.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((i) => weight(counts.get(i) ?? 0)) };
}
