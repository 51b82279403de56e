/** @module Renders stored and scored records as the Upstash Vector client expects them. */
import type { VectorContext } from "./context.ts";
import { hasDense, hasSparse } from "./config.ts";
import type { NamespaceStore, ScoredRecord, StoredRecord } from "./store.ts";
import type { Includes, Json } from "./validate.ts";

/**
 * A record as the client sees it. Fields that were not requested, or that the record does not
 * have, are omitted rather than sent as null (the official tests compare with `toEqual`).
 * `includeVectors` returns `vector` on dense and hybrid indexes and `sparseVector` on sparse and
 * hybrid indexes (reference B3).
 */
export function renderRecord(ctx: VectorContext, ns: NamespaceStore, record: StoredRecord, inc: Includes, score?: number): Json {
  const out: Json = { id: record.id };
  if (score !== undefined) out.score = score;
  if (inc.vectors && hasDense(ctx.config)) out.vector = ns.vector(record);
  if (inc.vectors && hasSparse(ctx.config)) {
    const sparse = record.sparse ?? { indices: [], values: [] };
    out.sparseVector = { indices: [...sparse.indices], values: [...sparse.values] };
  }
  if (inc.metadata && record.metadata !== undefined) out.metadata = record.metadata;
  if (inc.data && record.data !== undefined) out.data = record.data;
  return out;
}

export function renderScored(ctx: VectorContext, ns: NamespaceStore, hits: ScoredRecord[], inc: Includes): Json[] {
  return hits.map((h) => renderRecord(ctx, ns, h.record, inc, h.score));
}
