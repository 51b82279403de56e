/** @module The session routes: get state, change settings, reset, compress now, and read the summary history. */
import { z } from "@hono/zod-openapi";
import { OPTION_BOUNDS } from "../../memory/options.ts";
import type { SessionState } from "../../memory/sessions/index.ts";
import { compressView, statsView, summaryView } from "../render.ts";
import { sessionRead, sessionWrite } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { QueryBool, SessionParams, bodyErrorResponses, errorResponses, queryInt, jsonResponse, security } from "../schemas/common.ts";
import {
  CompressionSchema,
  SESSION_EXAMPLES,
  SessionHistorySchema,
  SessionResetSchema,
  SessionStateSchema,
  type SessionReset,
} from "../schemas/session-responses.ts";

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

const getRoute = defineRoute(
  {
    method: "get",
    path: "/v1/sessions/{sessionId}",
    summary: "Session state: settings, stats, summary, pinned system messages, one page of the window",
    security,
    request: {
      params: SessionParams,
      query: z.object({ offset: queryInt(0, 10_000_000).optional(), limit: queryInt(1, 1000).optional() }),
    },
    responses: {
      200: jsonResponse(SessionStateSchema, "Session state with one page of the window", SESSION_EXAMPLES.state),
      ...errorResponses,
    },
  },
  {
    access: sessionRead,
    doc: {
      operationId: "getSession",
      tag: "Sessions",
      description:
        "The session's settings, stats, summary, pinned system messages and one page of its window (`offset` from the oldest message, `limit` up to 1000, default 200; `page.next` is the next offset).",
    },
  },
);

const putRoute = defineRoute(
  {
    method: "put",
    path: "/v1/sessions/{sessionId}",
    summary: "Per-session settings: window, maxTokens, keep, ttlSeconds",
    security,
    request: { params: SessionParams, body: { content: { "application/json": { schema: SettingsBody } }, required: true } },
    responses: {
      200: jsonResponse(SessionStateSchema, "The session with its effective settings", SESSION_EXAMPLES.state),
      ...bodyErrorResponses,
    },
  },
  {
    access: sessionWrite,
    doc: {
      operationId: "updateSessionSettings",
      tag: "Sessions",
      description: "Changes per-session settings. Fields left out keep their value; `null` returns a field to the configured default.",
    },
    example: { maxTokens: 4000, keep: 10, window: null },
  },
);

const deleteRoute = defineRoute(
  {
    method: "delete",
    path: "/v1/sessions/{sessionId}",
    summary: "Reset the session (like /clear); keepSystem keeps the pinned system messages",
    security,
    request: { params: SessionParams, query: z.object({ keepSystem: QueryBool.optional() }) },
    responses: {
      200: jsonResponse(
        SessionResetSchema,
        "`deleted`: messages removed; `keptSystem`: pinned system messages kept",
        SESSION_EXAMPLES.reset,
      ),
      ...errorResponses,
    },
  },
  {
    access: sessionWrite,
    doc: {
      operationId: "resetSession",
      tag: "Sessions",
      description: "Resets the session like a `/clear` command; `keepSystem=true` keeps the pinned system messages.",
    },
  },
);

const compressRoute = defineRoute(
  {
    method: "post",
    path: "/v1/sessions/{sessionId}/compress",
    summary: "Compress now (below the threshold nothing happens unless force=true)",
    security,
    request: { params: SessionParams, query: z.object({ force: QueryBool.optional() }) },
    responses: { 200: jsonResponse(CompressionSchema, "What happened", SESSION_EXAMPLES.compression), ...errorResponses },
  },
  {
    access: sessionWrite,
    doc: {
      operationId: "compressSession",
      tag: "Sessions",
      description: "Compresses now instead of in the background. Below the `maxTokens` threshold nothing happens unless `force=true`.",
    },
  },
);

const historyRoute = defineRoute(
  {
    method: "get",
    path: "/v1/sessions/{sessionId}/history",
    summary: "The summary and the archived originals it replaced",
    security,
    request: { params: SessionParams, query: z.object({ offset: queryInt(0, 1_000_000).optional(), limit: queryInt(1, 1000).optional() }) },
    responses: { 200: jsonResponse(SessionHistorySchema, "Summary and archived messages", SESSION_EXAMPLES.history), ...errorResponses },
  },
  {
    access: sessionRead,
    doc: {
      operationId: "getSessionHistory",
      tag: "Sessions",
      description: "The rolling summary and the archived original messages it replaced, oldest first, paged by `offset` and `limit`.",
    },
  },
);

const stateView = (state: SessionState): SessionState => ({ ...state, stats: statsView(state.stats), summary: summaryView(state.summary) });

export function sessionRoutes() {
  const app = createRouter();

  app.openapi(getRoute.route, async (c) => {
    const { offset, limit } = c.req.valid("query");
    return c.json(stateView(await c.get("memory").session(c.req.valid("param").sessionId, { offset, limit })), 200);
  });

  app.openapi(putRoute.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    return c.json(stateView(await c.get("memory").updateSettings(sessionId, c.req.valid("json"))), 200);
  });

  app.openapi(deleteRoute.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    const keepSystem = c.req.valid("query").keepSystem ?? false;
    const { removedMessages, keptSystem } = await c.get("memory").reset(sessionId, keepSystem);
    return c.json({ sessionId, deleted: removedMessages, keptSystem } satisfies SessionReset, 200);
  });

  app.openapi(compressRoute.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    const result = await c.get("memory").compress(sessionId, c.req.valid("query").force ?? false);
    return c.json({ sessionId, ...compressView(result) }, 200);
  });

  app.openapi(historyRoute.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    const q = c.req.valid("query");
    const page = await c.get("memory").history(sessionId, { offset: q.offset ?? 0, limit: q.limit ?? 100 });
    return c.json({ sessionId, ...page, summary: summaryView(page.summary) }, 200);
  });

  return app;
}

/** The routes this module mounts, for the route registry. */
export const sessionRouteDefs: readonly DefinedRoute[] = [getRoute, putRoute, deleteRoute, compressRoute, historyRoute];
