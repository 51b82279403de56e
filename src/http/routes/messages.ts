import { createRoute, z } from "@hono/zod-openapi";
import { actingUser } from "../acting-user.ts";
import { round4, statsView } from "../render.ts";
import { createRouter } from "../router.ts";
import { IdSchema, SessionParams, errorResponses, queryInt, jsonResponse, security } from "../schemas/common.ts";
import { FactTypeList } from "../schemas/facts.ts";
import { AppendBodySchema, toIncomingNative } from "../schemas/messages.ts";

const appendRoute = createRoute({
  method: "post",
  path: "/v1/sessions/{sessionId}/messages",
  summary: "Append messages (one Redis round trip); schedules compression when due",
  security,
  request: { params: SessionParams, body: { content: { "application/json": { schema: AppendBodySchema } }, required: true } },
  responses: { 201: jsonResponse(z.object({}).passthrough(), "Appended"), ...errorResponses, 409: jsonResponse(z.object({}).passthrough(), "Session owned by another user") },
});

const contextRoute = createRoute({
  method: "get",
  path: "/v1/sessions/{sessionId}/context",
  summary: "Assembled context within a token budget: system -> summary -> recalled facts -> window",
  security,
  request: {
    params: SessionParams,
    query: z.object({
      query: z.string().max(4000).optional(),
      userId: IdSchema.optional(),
      k: queryInt(0, 50).optional(),
      budget: queryInt(1, 2_000_000).optional(),
      types: FactTypeList.optional(),
    }),
  },
  responses: { 200: jsonResponse(z.object({}).passthrough(), "The context and what went into it"), ...errorResponses },
});

export function messageRoutes() {
  const app = createRouter();

  app.openapi(appendRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const body = c.req.valid("json");
    const result = await c.get("memory").append(sessionId, { userId: actingUser(c, body.userId), messages: body.messages.map(toIncomingNative) });
    return c.json({ sessionId, added: result.added, stats: statsView(result.stats), compressionDue: result.compressionDue, facts: result.facts }, 201);
  });

  app.openapi(contextRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const q = c.req.valid("query");
    const context = await c.get("memory").context(sessionId, { ...q, userId: actingUser(c, q.userId) });
    return c.json(
      {
        sessionId,
        messages: context.messages,
        tokens: context.tokens,
        budget: context.budget,
        recalled: context.facts.map((r) => ({ id: r.fact.id, text: r.fact.text, type: r.fact.type, score: round4(r.score), similarity: round4(r.similarity) })),
        summary: context.summary,
        omitted: context.omitted,
        stats: statsView(context.stats),
        ...(context.degraded.length > 0 ? { degraded: context.degraded } : {}),
      },
      200,
    );
  });

  return app;
}
