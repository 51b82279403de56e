import { createRoute, z } from "@hono/zod-openapi";
import { RECENT_TRACES_KEPT } from "../../memory/observe.ts";
import { createRouter } from "../router.ts";
import { IdSchema, SessionParams, errors, jsonResponse, queryInt, security } from "../schemas/common.ts";
import { OBSERVE_EXAMPLES, StatsSchema, TraceListSchema, TraceSchema } from "../schemas/observe-responses.ts";

const traceRoute = createRoute({
  method: "get",
  path: "/v1/traces/{traceId}",
  summary: "One turn's trace: recall candidates and verdicts, what was injected per part, round trips",
  security,
  request: { params: z.object({ traceId: IdSchema.openapi({ param: { name: "traceId", in: "path" } }) }) },
  responses: { 200: jsonResponse(TraceSchema, "The trace", OBSERVE_EXAMPLES.trace), ...errors(400, 401, 404, 503) },
});

const sessionTracesRoute = createRoute({
  method: "get",
  path: "/v1/sessions/{sessionId}/traces",
  summary: "The session's latest trace ids, newest first",
  security,
  request: { params: SessionParams, query: z.object({ limit: queryInt(1, RECENT_TRACES_KEPT).optional() }) },
  responses: { 200: jsonResponse(TraceListSchema, "The latest trace ids, newest first", OBSERVE_EXAMPLES.traceList), ...errors(400, 401, 503) },
});

const statsRoute = createRoute({
  method: "get",
  path: "/v1/stats",
  summary: "The tenant's metrics: sessions, messages, tokens, session length, facts, compressions, recall hit rate, latency, alerts",
  security,
  responses: { 200: jsonResponse(StatsSchema, "The figures and any alerts", OBSERVE_EXAMPLES.stats), ...errors(401, 503) },
});

export function observeRoutes() {
  const app = createRouter();
  app.openapi(traceRoute, async (c) => c.json(await c.get("memory").trace(c.req.valid("param").traceId), 200));
  app.openapi(sessionTracesRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const traces = await c.get("memory").recentTraces(sessionId, c.req.valid("query").limit ?? RECENT_TRACES_KEPT);
    return c.json({ sessionId, traces }, 200);
  });
  app.openapi(statsRoute, async (c) => c.json(await c.get("memory").stats(), 200));
  return app;
}
