/** @module Vector query endpoints: parsing `/query` and `/query-data` requests and running them. */
import { embedQuery, requireEmbedding, type VectorContext } from "./context.ts";
import { badRequest, unprocessable } from "./errors.ts";
import { filterFromRequest, type FilterPredicate } from "./filter/index.ts";
import type { FusionAlgorithm } from "./fusion.ts";
import { LIMITS, readData } from "./limits.ts";
import { readQueryParts, rejectForeignParts, rejectVectors } from "./parts.ts";
import { rank, type RankRequest } from "./ranking.ts";
import { renderScored } from "./render.ts";
import type { ScoredRecord } from "./store.ts";
import { readCount, readIncludes, readString, requireObject, type Includes, type Json } from "./validate.ts";

/** `vector` for `/query`, `data` for `/query-data` (the text is embedded first). */
export type QueryMode = "vector" | "data";

export interface ParsedQuery extends Omit<RankRequest, "accept"> {
  topK: number;
  includes: Includes;
  filter: FilterPredicate | undefined;
}

const QUERY_MODES = ["HYBRID", "DENSE", "SPARSE"] as const;

/** `queryMode` of `/query-data`: which components the text is embedded for (default HYBRID = all the index has). */
function readQueryMode(ctx: VectorContext, q: Json): { dense: boolean; sparse: boolean } {
  const mode = readString(q.queryMode, "queryMode")?.toUpperCase() ?? "HYBRID";
  if (!QUERY_MODES.some((m) => m === mode)) throw badRequest("Invalid request body: queryMode must be HYBRID, DENSE or SPARSE");
  const { kind } = ctx.config;
  if (kind === "dense" && mode === "SPARSE") throw unprocessable("queryMode SPARSE is not supported: the index type is DENSE");
  if (kind === "sparse" && mode === "DENSE") throw unprocessable("queryMode DENSE is not supported: the index type is SPARSE");
  return { dense: mode !== "SPARSE", sparse: mode !== "DENSE" };
}

function readFusion(q: Json): FusionAlgorithm {
  const value = readString(q.fusionAlgorithm, "fusionAlgorithm")?.toUpperCase() ?? "RRF";
  if (value !== "RRF" && value !== "DBSF") throw badRequest("Invalid request body: fusionAlgorithm must be RRF or DBSF");
  return value;
}

function readIdf(q: Json): boolean {
  const value = readString(q.weightingStrategy, "weightingStrategy");
  if (value === undefined) return false;
  if (value.toUpperCase() !== "IDF") throw badRequest("Invalid request body: weightingStrategy must be IDF");
  return true;
}

/** Validates one query object. topK defaults to 10 and may be at most {@link LIMITS.topK}. */
export async function parseQuery(ctx: VectorContext, body: unknown, mode: QueryMode): Promise<ParsedQuery> {
  const q = requireObject(body, "the query");
  rejectForeignParts(ctx, q);
  let text: { data: string; use: { dense: boolean; sparse: boolean } } | undefined;
  let parts: Awaited<ReturnType<typeof embedQuery>> | undefined;
  if (mode === "data") {
    requireEmbedding(ctx);
    rejectVectors(q, "/query-data");
    const use = readQueryMode(ctx, q);
    const data = readData(q.data);
    if (data === undefined) throw badRequest("Invalid request body: data is required");
    text = { data, use };
  } else {
    parts = readQueryParts(ctx, q);
  }
  const rest = {
    topK: readCount(q.topK, "topK", 10, LIMITS.topK),
    includes: readIncludes(q),
    filter: filterFromRequest(readString(q.filter, "filter")),
    fusion: readFusion(q),
    idf: readIdf(q),
  };
  // Embedded only once the whole query is valid (a bad query costs no model time).
  if (text) parts = await embedQuery(ctx, text.data, text.use);
  return {
    vector: parts?.vector === undefined ? undefined : Float64Array.from(parts.vector),
    sparse: parts?.sparse,
    ...rest,
  };
}

export const rankRequest = (q: ParsedQuery): RankRequest => {
  const filter = q.filter;
  return { ...q, accept: filter ? (r) => filter(r.metadata) : undefined };
};

/** Ranks the namespace (missing namespaces are empty); `limit` defaults to the query's topK. */
export function search(ctx: VectorContext, namespace: string, q: ParsedQuery, limit = q.topK): ScoredRecord[] {
  const ns = ctx.store.get(namespace);
  return ns ? rank(ctx, ns, rankRequest(q), limit) : [];
}

function runOne(ctx: VectorContext, namespace: string, q: ParsedQuery): Json[] {
  const ns = ctx.store.get(namespace);
  return ns ? renderScored(ctx, ns, search(ctx, namespace, q), q.includes) : [];
}

/**
 * `POST /query/{ns}` and `/query-data/{ns}`. A batch (JSON array) of one query answers with a flat
 * list, like a single query; a batch of several answers with a list of lists.
 */
export async function query(ctx: VectorContext, namespace: string, body: unknown, mode: QueryMode): Promise<Json[] | Json[][]> {
  if (!Array.isArray(body)) return runOne(ctx, namespace, await parseQuery(ctx, body, mode));
  // Every query is validated and embedded (their texts share one model batch) before any runs.
  const batch = await Promise.all((body as unknown[]).map((item) => parseQuery(ctx, item, mode)));
  if (batch.length === 1 && batch[0]) return runOne(ctx, namespace, batch[0]);
  return batch.map((q) => runOne(ctx, namespace, q));
}
