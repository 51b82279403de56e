import { createRoute, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env.ts";
import { resolveSessionOptions } from "../../memory/options.ts";
import { windowStats } from "../../memory/window.ts";
import { memoryFor, sessionRef } from "../memory.ts";
import { createRouter } from "../router.ts";
import { QueryBool, SessionParams, errorResponses, queryInt, jsonResponse, AnyObject, security } from "../schemas/common.ts";
import type { Context } from "hono";


/** `null` clears an override (back to the configured default). */
const SettingsBody = z
  .object({
    window: z.number().int().min(0).max(10_000).nullable().optional(),
    maxTokens: z.number().int().min(50).max(1_000_000).nullable().optional(),
    keep: z.number().int().min(0).max(1000).nullable().optional(),
    ttlSeconds: z.number().int().min(60).max(315_360_000).nullable().optional(),
  })
  .strict()
  .openapi("SessionSettings");

const getRoute = createRoute({
  method: "get",
  path: "/v1/sessions/{sessionId}",
  summary: "Session state: settings, stats, summary, pinned system messages, window",
  security,
  request: { params: SessionParams },
  responses: { 200: jsonResponse(AnyObject, "Session state"), ...errorResponses },
});

const putRoute = createRoute({
  method: "put",
  path: "/v1/sessions/{sessionId}",
  summary: "Per-session settings: window, maxTokens, keep, ttlSeconds",
  security,
  request: { params: SessionParams, body: { content: { "application/json": { schema: SettingsBody } }, required: true } },
  responses: { 200: jsonResponse(AnyObject, "Effective settings"), ...errorResponses },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/v1/sessions/{sessionId}",
  summary: "Reset the session (like /clear); keepSystem keeps the pinned system messages",
  security,
  request: { params: SessionParams, query: z.object({ keepSystem: QueryBool.optional() }) },
  responses: { 200: jsonResponse(AnyObject, "What was removed"), ...errorResponses },
});

const compressRoute = createRoute({
  method: "post",
  path: "/v1/sessions/{sessionId}/compress",
  summary: "Compress now (below the threshold nothing happens unless force=true)",
  security,
  request: { params: SessionParams, query: z.object({ force: QueryBool.optional() }) },
  responses: { 200: jsonResponse(AnyObject, "What happened"), ...errorResponses },
});

const historyRoute = createRoute({
  method: "get",
  path: "/v1/sessions/{sessionId}/history",
  summary: "The summary and the archived originals it replaced",
  security,
  request: { params: SessionParams, query: z.object({ offset: queryInt(0, 1_000_000).optional(), limit: queryInt(1, 1000).optional() }) },
  responses: { 200: jsonResponse(AnyObject, "Summary and archived messages"), ...errorResponses },
});

async function sessionState(c: Context<AppEnv>, sessionId: string) {
  const snapshot = await c.get("deps").sessions().read(sessionRef(c, sessionId));
  const config = c.get("config");
  const effective = resolveSessionOptions(config.memory, snapshot.settings);
  return {
    sessionId,
    exists: snapshot.exists,
    userId: snapshot.meta?.userId ?? null,
    createdAt: snapshot.meta?.createdAt ?? null,
    updatedAt: snapshot.meta?.updatedAt ?? null,
    settings: {
      window: effective.window,
      maxTokens: effective.maxTokens,
      keep: effective.keep,
      ttlSeconds: effective.sessionTtlSeconds,
      overrides: snapshot.settings,
    },
    stats: windowStats(snapshot, effective),
    summary: snapshot.summary,
    system: snapshot.system,
    window: snapshot.window,
  };
}

export function sessionRoutes() {
  const app = createRouter();

  app.openapi(getRoute, async (c) => c.json(await sessionState(c, c.req.valid("param").sessionId), 200));

  app.openapi(putRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const body = c.req.valid("json");
    const settings = {
      window: body.window ?? undefined,
      maxTokens: body.maxTokens ?? undefined,
      keep: body.keep ?? undefined,
      ttlSeconds: body.ttlSeconds ?? undefined,
    };
    const ref = sessionRef(c, sessionId);
    const sessions = c.get("deps").sessions();
    // Fields not named in the body keep their current override.
    const current = (await sessions.read(ref)).settings;
    const merged = { ...current };
    for (const key of Object.keys(settings) as (keyof typeof settings)[]) {
      if (key in body) merged[key] = settings[key];
    }
    const ttl = merged.ttlSeconds ?? c.get("config").memory.sessionTtlSeconds;
    await sessions.putSettings(ref, merged, ttl);
    return c.json(await sessionState(c, sessionId), 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const keepSystem = c.req.valid("query").keepSystem ?? false;
    const result = await c.get("deps").sessions().reset(sessionRef(c, sessionId), { keepSystem });
    return c.json({ sessionId, reset: true, keepSystem, ...result }, 200);
  });

  app.openapi(compressRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const force = c.req.valid("query").force ?? false;
    const memory = await memoryFor(c, sessionId);
    const result = await memory.maybeCompress({ force });
    return c.json({ sessionId, ...result }, 200);
  });

  app.openapi(historyRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const q = c.req.valid("query");
    const page = await c.get("deps").sessions().history(sessionRef(c, sessionId), { offset: q.offset ?? 0, limit: q.limit ?? 100 });
    return c.json({ sessionId, ...page }, 200);
  });

  return app;
}
