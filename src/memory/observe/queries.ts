/** @module Observability reads: stored traces, a session's recent traces and the tenant's stats. */
import type { TenantDeps } from "../tenant-deps.ts";
import { MemoryError, UpstreamUnavailable } from "../errors.ts";
import { tenantStats, type TenantStats } from "./metrics.ts";
import type { TraceRef } from "../ports/operations.ts";
import type { Trace } from "./trace.ts";
import { FACT_TYPES } from "../model.ts";

/** How many trace ids a session lists (the inspector shows the latest few). */
export const RECENT_TRACES_KEPT = 20;

/** Facts counted per type for the stats, at most; past it the counts say `truncated`. */
export const STATS_FACTS_SCANNED = 2000;
const FACT_PAGE = 100;

/** One stored trace of this tenant; `not_found` for an unknown, expired or other tenant's id. */
export async function readTrace(d: Pick<TenantDeps, "tenant" | "traces">, traceId: string): Promise<Trace> {
  const trace = d.traces ? await d.traces.get(d.tenant, traceId) : null;
  if (!trace) throw new MemoryError("not_found", `no trace ${traceId}`);
  return trace;
}

/** The session's latest traces, newest first (empty when tracing is off). */
export function recentTraces(d: Pick<TenantDeps, "tenant" | "traces">, sessionId: string, limit: number): Promise<TraceRef[]> {
  return d.traces ? d.traces.recent(d.tenant, sessionId, limit) : Promise.resolve([]);
}

/** What the tenant's stats read. */
type StatsDeps = Pick<TenantDeps, "tenant" | "facts" | "metricsStore" | "now">;

/** Facts per type over the tenant's users, reading at most {@link STATS_FACTS_SCANNED} facts. */
async function countFacts(d: StatsDeps): Promise<TenantStats["facts"]> {
  const store = d.facts;
  if (!store) return null;
  const byType: Record<string, number> = Object.fromEntries(FACT_TYPES.map((t) => [t, 0]));
  let total = 0;
  const scopes = (await store.scopes()).filter((s) => s.tenant === d.tenant);
  for (const scope of scopes) {
    let cursor = "";
    do {
      if (total >= STATS_FACTS_SCANNED) return { total, byType, truncated: true };
      const page = await store.list(scope, cursor, FACT_PAGE);
      for (const fact of page.facts) byType[fact.type] = (byType[fact.type] ?? 0) + 1;
      total += page.facts.length;
      cursor = page.nextCursor;
    } while (cursor !== "");
  }
  return { total, byType, truncated: false };
}

/** The tenant's figures: counters in one Redis round trip, facts per type from the fact store beside it. */
export async function readStats(d: StatsDeps): Promise<TenantStats> {
  const store = d.metricsStore;
  if (!store) throw new UpstreamUnavailable("redis", "metrics need Redis (UPSTASH_REDIS_REST_URL / _TOKEN)", { reason: "not_configured" });
  const [stored, facts] = await Promise.all([store.read(d.tenant, d.now()), countFacts(d)]);
  return tenantStats(stored, facts);
}
