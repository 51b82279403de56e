import { createRoute, z } from "@hono/zod-openapi";
import { RECENT_TRACES_KEPT } from "../../memory/observe.ts";
import { createRouter } from "../router.ts";
import { AnyObject, IdSchema, SessionParams, errorResponses, jsonResponse, queryInt, security } from "../schemas/common.ts";

const traceRoute = createRoute({
  method: "get",
  path: "/v1/traces/{traceId}",
  summary: "One turn's trace: recall candidates and verdicts, what was injected per part, round trips",
  security,
  request: { params: z.object({ traceId: IdSchema.openapi({ param: { name: "traceId", in: "path" } }) }) },
  responses: { 200: jsonResponse(AnyObject, "The trace"), ...errorResponses },
});

const sessionTracesRoute = createRoute({
  method: "get",
  path: "/v1/sessions/{sessionId}/traces",
  summary: "The session's latest trace ids, newest first",
  security,
  request: { params: SessionParams, query: z.object({ limit: queryInt(1, RECENT_TRACES_KEPT).optional() }) },
  responses: { 200: jsonResponse(AnyObject, "`{sessionId, traces: [{traceId, kind, at}]}`"), ...errorResponses },
});

const statsRoute = createRoute({
  method: "get",
  path: "/v1/stats",
  summary: "The tenant's metrics: sessions, messages, tokens, session length, facts, compressions, recall hit rate, latency, alerts",
  security,
  responses: { 200: jsonResponse(AnyObject, "The figures and any alerts"), ...errorResponses },
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
