import { createRoute, z } from "@hono/zod-openapi";
import { OPTION_BOUNDS } from "../../memory/options.ts";
import type { SessionState } from "../../memory/sessions.ts";
import { compressView, statsView, summaryView } from "../render.ts";
import { createRouter } from "../router.ts";
import { QueryBool, SessionParams, bodyErrorResponses, errorResponses, queryInt, jsonResponse, security } from "../schemas/common.ts";
import { CompressionSchema, SESSION_EXAMPLES, SessionHistorySchema, SessionResetSchema, SessionStateSchema, type SessionReset } from "../schemas/session-responses.ts";

const bounded = (b: { min: number; max: number }) => z.number().int().min(b.min).max(b.max).nullable().optional();

/** `null` clears an override (back to the configured default); fields not named keep theirs. */
const SettingsBody = z
  .object({
    window: bounded(OPTION_BOUNDS.window),
    maxTokens: bounded(OPTION_BOUNDS.maxTokens),
    keep: bounded(OPTION_BOUNDS.keep),
    ttlSeconds: bounded(OPTION_BOUNDS.sessionTtlSeconds),
  })
  .strict()
  .openapi("SessionSettings");

const getRoute = createRoute({
  method: "get",
  path: "/v1/sessions/{sessionId}",
  summary: "Session state: settings, stats, summary, pinned system messages, one page of the window",
  security,
  request: { params: SessionParams, query: z.object({ offset: queryInt(0, 10_000_000).optional(), limit: queryInt(1, 1000).optional() }) },
  responses: { 200: jsonResponse(SessionStateSchema, "Session state with one page of the window", SESSION_EXAMPLES.state), ...errorResponses },
});

const putRoute = createRoute({
  method: "put",
  path: "/v1/sessions/{sessionId}",
  summary: "Per-session settings: window, maxTokens, keep, ttlSeconds",
  security,
  request: { params: SessionParams, body: { content: { "application/json": { schema: SettingsBody } }, required: true } },
  responses: { 200: jsonResponse(SessionStateSchema, "The session with its effective settings", SESSION_EXAMPLES.state), ...bodyErrorResponses },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/v1/sessions/{sessionId}",
  summary: "Reset the session (like /clear); keepSystem keeps the pinned system messages",
  security,
  request: { params: SessionParams, query: z.object({ keepSystem: QueryBool.optional() }) },
  responses: { 200: jsonResponse(SessionResetSchema, "`deleted`: messages removed; `keptSystem`: pinned system messages kept", SESSION_EXAMPLES.reset), ...errorResponses },
});

const compressRoute = createRoute({
  method: "post",
  path: "/v1/sessions/{sessionId}/compress",
  summary: "Compress now (below the threshold nothing happens unless force=true)",
  security,
  request: { params: SessionParams, query: z.object({ force: QueryBool.optional() }) },
  responses: { 200: jsonResponse(CompressionSchema, "What happened", SESSION_EXAMPLES.compression), ...errorResponses },
});

const historyRoute = createRoute({
  method: "get",
  path: "/v1/sessions/{sessionId}/history",
  summary: "The summary and the archived originals it replaced",
  security,
  request: { params: SessionParams, query: z.object({ offset: queryInt(0, 1_000_000).optional(), limit: queryInt(1, 1000).optional() }) },
  responses: { 200: jsonResponse(SessionHistorySchema, "Summary and archived messages", SESSION_EXAMPLES.history), ...errorResponses },
});

const stateView = (state: SessionState): SessionState => ({ ...state, stats: statsView(state.stats), summary: summaryView(state.summary) });

export function sessionRoutes() {
  const app = createRouter();

  app.openapi(getRoute, async (c) => {
    const { offset, limit } = c.req.valid("query");
    return c.json(stateView(await c.get("memory").session(c.req.valid("param").sessionId, { offset, limit })), 200);
  });

  app.openapi(putRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    return c.json(stateView(await c.get("memory").updateSettings(sessionId, c.req.valid("json"))), 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const keepSystem = c.req.valid("query").keepSystem ?? false;
    const { removedMessages, keptSystem } = await c.get("memory").reset(sessionId, keepSystem);
    return c.json({ sessionId, deleted: removedMessages, keptSystem } satisfies SessionReset, 200);
  });

  app.openapi(compressRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const result = await c.get("memory").compress(sessionId, c.req.valid("query").force ?? false);
    return c.json({ sessionId, ...compressView(result) }, 200);
  });

  app.openapi(historyRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const q = c.req.valid("query");
    const page = await c.get("memory").history(sessionId, { offset: q.offset ?? 0, limit: q.limit ?? 100 });
    return c.json({ sessionId, ...page, summary: summaryView(page.summary) }, 200);
  });

  return app;
}
