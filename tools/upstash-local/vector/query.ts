import { embed, requireEmbedding, type VectorContext } from "./context.ts";
import { badRequest, unprocessable } from "./errors.ts";
import { filterFromRequest, type FilterPredicate } from "./filter/index.ts";
import { renderScored } from "./render.ts";
import type { ScoredRecord } from "./store.ts";
import { LIMITS, readData } from "./limits.ts";
import {
  present, readCount, readIncludes, readString, readVector, rejectSparse, requireObject, type Includes, type Json,
} from "./validate.ts";

/** `vector` for `/query`, `data` for `/query-data` (the text is embedded first). */
export type QueryMode = "vector" | "data";

export interface ParsedQuery {
  vector: Float64Array;
  topK: number;
  includes: Includes;
  filter: FilterPredicate | undefined;
}

/** Validates one query object. topK defaults to 10 and may be at most {@link LIMITS.topK}. */
export function parseQuery(ctx: VectorContext, body: unknown, mode: QueryMode): ParsedQuery {
  const q = requireObject(body, "the query");
  rejectSparse(q);
  let vector: Float64Array;
  if (mode === "data") {
    requireEmbedding(ctx);
    if (present(q.vector)) throw badRequest("Invalid request body: /query-data takes data, not vector");
    const queryMode = readString(q.queryMode, "queryMode")?.toUpperCase();
    if (queryMode === "SPARSE") throw unprocessable("queryMode SPARSE is not supported: the index type is DENSE");
    if (queryMode !== undefined && queryMode !== "HYBRID" && queryMode !== "DENSE") {
      throw badRequest("Invalid request body: queryMode must be HYBRID, DENSE or SPARSE");
    }
    const data = readData(q.data);
    if (data === undefined) throw badRequest("Invalid request body: data is required");
    vector = embed(ctx, data);
  } else {
    if (!present(q.vector)) throw badRequest("Invalid request body: vector is required (use /query-data to query with data)");
    vector = Float64Array.from(readVector(q.vector, ctx.config.dimension));
  }
  return {
    vector,
    topK: readCount(q.topK, "topK", 10, LIMITS.topK),
    includes: readIncludes(q),
    filter: filterFromRequest(readString(q.filter, "filter")),
  };
}

/** Ranks the namespace (missing namespaces are empty); `limit` defaults to the query's topK. */
export function search(ctx: VectorContext, namespace: string, q: ParsedQuery, limit = q.topK): ScoredRecord[] {
  const ns = ctx.store.get(namespace);
  if (!ns || limit === 0) return [];
  const filter = q.filter;
  return ns.search(q.vector, ctx.config.similarity, limit, filter ? (r) => filter(r.metadata) : undefined);
}

function runOne(ctx: VectorContext, namespace: string, q: ParsedQuery): Json[] {
  const ns = ctx.store.get(namespace);
  return ns ? renderScored(ns, search(ctx, namespace, q), q.includes) : [];
}

/**
 * `POST /query/{ns}` and `/query-data/{ns}`. A batch (JSON array) of one query answers with a flat
 * list, like a single query; a batch of several answers with a list of lists.
 */
export function query(ctx: VectorContext, namespace: string, body: unknown, mode: QueryMode): Json[] | Json[][] {
  if (!Array.isArray(body)) return runOne(ctx, namespace, parseQuery(ctx, body, mode));
  const batch = (body as unknown[]).map((item) => parseQuery(ctx, item, mode)); // validate all first
  if (batch.length === 1 && batch[0]) return runOne(ctx, namespace, batch[0]);
  return batch.map((q) => runOne(ctx, namespace, q));
}
