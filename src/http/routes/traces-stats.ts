/** Routes of what memory did: per-turn traces (one by id, a session's latest) and the tenant's stats. */
import { z } from "@hono/zod-openapi";
import { RECENT_TRACES_KEPT } from "../../memory/observe/index.ts";
import { tenantRead } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { IdSchema, SessionParams, errors, jsonResponse, queryInt, security } from "../schemas/common.ts";
import { OBSERVE_EXAMPLES, StatsSchema, TraceListSchema, TraceSchema } from "../schemas/observe-responses.ts";

const traceRoute = defineRoute(
  {
    method: "get",
    path: "/v1/traces/{traceId}",
    summary: "One turn's trace: recall candidates and verdicts, what was injected per part, round trips",
    security,
    request: { params: z.object({ traceId: IdSchema.openapi({ param: { name: "traceId", in: "path" } }) }) },
    responses: { 200: jsonResponse(TraceSchema, "The trace", OBSERVE_EXAMPLES.trace), ...errors(400, 401, 404, 503) },
  },
  {
    // Traces hold query and fact texts of any user; stats span the tenant: tenant keys (read keys too).
    access: tenantRead,
    doc: {
      operationId: "getTrace",
      tag: "Observability",
      description:
        "The trace of one context read, chat turn or proxied completion (its id came as `X-Memory-Trace-Id`): the recall query, every candidate with similarity, score and why it was kept or dropped, the tokens of each injected part against the budget, the round trips and their timings, degraded parts. Kept for `TRACE_TTL_SECONDS`; another tenant's id is a 404.",
    },
  },
);

const sessionTracesRoute = defineRoute(
  {
    method: "get",
    path: "/v1/sessions/{sessionId}/traces",
    summary: "The session's latest trace ids, newest first",
    security,
    request: { params: SessionParams, query: z.object({ limit: queryInt(1, RECENT_TRACES_KEPT).optional() }) },
    responses: {
      200: jsonResponse(TraceListSchema, "The latest trace ids, newest first", OBSERVE_EXAMPLES.traceList),
      ...errors(400, 401, 503),
    },
  },
  {
    access: tenantRead,
    doc: {
      operationId: "listSessionTraces",
      tag: "Observability",
      description: "The session's latest trace ids with their kind and time, newest first.",
    },
  },
);

const statsRoute = defineRoute(
  {
    method: "get",
    path: "/v1/stats",
    summary: "The tenant's metrics: sessions, messages, tokens, session length, facts, compressions, recall hit rate, latency, alerts",
    security,
    responses: { 200: jsonResponse(StatsSchema, "The figures and any alerts", OBSERVE_EXAMPLES.stats), ...errors(401, 503) },
  },
  {
    access: tenantRead,
    doc: {
      operationId: "getStats",
      tag: "Observability",
      description:
        "The tenant's figures: active sessions, messages and tokens stored, average and p95 session length, facts per type, compressions and their average ratio, summarizer failures, recall hit rate, 429s, p50/p95 latency by route over recent requests, and `alerts` when the last hour's average session length jumps above the day's.",
    },
  },
);

/** The Observability routes: one trace, a session's latest traces, the tenant's stats. */
export function traceAndStatsRoutes() {
  const app = createRouter();
  app.openapi(traceRoute.route, async (c) => c.json(await c.get("memory").trace(c.req.valid("param").traceId), 200));
  app.openapi(sessionTracesRoute.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    const traces = await c.get("memory").recentTraces(sessionId, c.req.valid("query").limit ?? RECENT_TRACES_KEPT);
    return c.json({ sessionId, traces }, 200);
  });
  app.openapi(statsRoute.route, async (c) => c.json(await c.get("memory").stats(), 200));
  return app;
}

/** The routes this module mounts, for the route registry. */
export const traceAndStatsRouteDefs: readonly DefinedRoute[] = [traceRoute, sessionTracesRoute, statsRoute];
