import { createRoute, z } from "@hono/zod-openapi";
import { actingUser } from "../acting-user.ts";
import { round4, statsView } from "../render.ts";
import { createRouter } from "../router.ts";
import { IdSchema, SessionParams, errors, queryInt, jsonResponse, security } from "../schemas/common.ts";
import { FactTypeList } from "../schemas/facts.ts";
import { AppendAnswerSchema, ContextAnswerSchema, MESSAGE_EXAMPLES, type AppendAnswer, type ContextAnswer } from "../schemas/message-responses.ts";
import { AppendBodySchema, toIncomingNative } from "../schemas/messages.ts";
import { TraceFlag, beginTrace, inlineTrace } from "../trace-view.ts";

const appendRoute = createRoute({
  method: "post",
  path: "/v1/sessions/{sessionId}/messages",
  summary: "Append messages (one Redis round trip); schedules compression when due",
  security,
  request: { params: SessionParams, body: { content: { "application/json": { schema: AppendBodySchema } }, required: true } },
  responses: { 201: jsonResponse(AppendAnswerSchema, "Appended", MESSAGE_EXAMPLES.append), ...errors(400, 401, 409, 413, 415, 503) },
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
      agentId: IdSchema.optional().openapi({ description: "Recall only what this agent sees: its own facts and the shared ones" }),
      trace: TraceFlag,
    }),
  },
  responses: { 200: jsonResponse(ContextAnswerSchema, "The context and what went into it", MESSAGE_EXAMPLES.context), ...errors(400, 401, 503) },
});

export function messageRoutes() {
  const app = createRouter();

  app.openapi(appendRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const body = c.req.valid("json");
    const result = await c.get("memory").append(sessionId, { userId: actingUser(c, body.userId), messages: body.messages.map(toIncomingNative) });
    return c.json({ sessionId, added: result.added, stats: statsView(result.stats), compressionDue: result.compressionDue, facts: result.facts } satisfies AppendAnswer, 201);
  });

  app.openapi(contextRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const { trace, agentId, ...q } = c.req.valid("query");
    const userId = actingUser(c, q.userId);
    beginTrace(c, "context", { sessionId, userId }, trace === true);
    const context = await c.get("memory").context(sessionId, { ...q, userId, ...(agentId === undefined ? {} : { filter: { agentId } }) });
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
        ...inlineTrace(c),
      } satisfies ContextAnswer,
      200,
    );
  });

  return app;
}
