/** @module Vector ranking: dense, sparse and fused hybrid rankings of a namespace for one query. */
import type { VectorContext } from "./context.ts";
import { float32Score } from "./float32.ts";
import { fuse, type FusionAlgorithm } from "./fusion.ts";
import { idfWeight } from "./sparse-postings.ts";
import type { SparseVector } from "./sparse-vector.ts";
import type { NamespaceStore, ScoredRecord, StoredRecord } from "./store.ts";

/** What a parsed query ranks by. At least one of `vector` and `sparse` is set. */
export interface RankRequest {
  vector: Float64Array | undefined;
  sparse: SparseVector | undefined;
  /** Weight sparse query values by the namespace's IDF. */
  idf: boolean;
  fusion: FusionAlgorithm;
  accept: ((record: StoredRecord) => boolean) | undefined;
}

const bySeq = (r: StoredRecord): number => r.seq;

/** Sparse ranking: inner products over shared dimensions, best first; records without overlap are absent. */
export function sparseRanking(ns: NamespaceStore, q: RankRequest, limit: number): ScoredRecord[] {
  if (!q.sparse) return [];
  const total = ns.size;
  const weight = q.idf ? (index: number) => idfWeight(total, ns.postings.documentFrequency(index)) : undefined;
  const hits: ScoredRecord[] = [];
  for (const [record, score] of ns.postings.score(q.sparse, weight)) {
    if (!q.accept || q.accept(record)) hits.push({ record, score });
  }
  hits.sort((a, b) => b.score - a.score || a.record.seq - b.record.seq);
  return hits.length > limit ? hits.slice(0, limit) : hits;
}

export function denseRanking(ctx: VectorContext, ns: NamespaceStore, q: RankRequest, limit: number): ScoredRecord[] {
  return q.vector ? ns.search(q.vector, ctx.config.similarity, limit, q.accept) : [];
}

/** Sparse and fused scores are float32 at Upstash; dense scores stay float64 as they always were here. */
const asFloat32 = (hits: ScoredRecord[]): ScoredRecord[] => hits.map((h) => ({ record: h.record, score: float32Score(h.score) }));

/**
 * The best `limit` records for a query. One part: that component's own ranking and raw scores
 * (Upstash: "querying with only one part returns that part's raw ranking"). Both parts: each
 * component ranks every matching record, the two rankings are fused, and the top `limit` are kept.
 */
export function rank(ctx: VectorContext, ns: NamespaceStore, q: RankRequest, limit: number): ScoredRecord[] {
  if (limit === 0) return [];
  if (!q.sparse) return denseRanking(ctx, ns, q, limit);
  if (!q.vector) return asFloat32(sparseRanking(ns, q, limit));
  return fuseTop(denseRanking(ctx, ns, q, Infinity), sparseRanking(ns, q, Infinity), q.fusion, limit);
}

/** Fuses two component rankings and keeps the best `limit`, in float32 like Upstash's fused scores. */
export function fuseTop(dense: ScoredRecord[], sparse: ScoredRecord[], fusion: FusionAlgorithm, limit: number): ScoredRecord[] {
  return asFloat32(fuse(dense, sparse, fusion, bySeq).slice(0, limit));
}
