import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env.ts";
import type { IncomingMessage } from "../../memory/types.ts";
import { ApiError } from "../errors.ts";
import { memoryFor } from "../memory.ts";
import { createRouter } from "../router.ts";
import { IdSchema, SessionParams, errorResponses, queryInt, jsonResponse, security } from "../schemas/common.ts";
import { AppendBodySchema } from "../schemas/messages.ts";
import { FactTypeList } from "../schemas/facts.ts";
import { scheduleAfterAppend } from "../background.ts";


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

/** Per-deployment limits the static schema cannot know. */
function checkLimits(c: Context<AppEnv>, messages: readonly IncomingMessage[]): void {
  const { maxMessagesPerRequest, maxMessageChars } = c.get("config").limits;
  if (messages.length > maxMessagesPerRequest) {
    throw new ApiError(400, "validation_failed", `at most ${maxMessagesPerRequest} messages per request`);
  }
  const tooLong = messages.findIndex((m) => m.content.length > maxMessageChars);
  if (tooLong >= 0) {
    throw new ApiError(413, "payload_too_large", `messages.${tooLong}.content exceeds ${maxMessageChars} characters`);
  }
}

export function messageRoutes() {
  const app = createRouter();

  app.openapi(appendRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const body = c.req.valid("json");
    checkLimits(c, body.messages);
    const memory = await memoryFor(c, sessionId, body.userId);
    const result = await memory.add(body.messages);
    scheduleAfterAppend(c, memory, { sessionId, userId: body.userId, incoming: body.messages, result });
    return c.json(
      {
        sessionId,
        added: result.added,
        stats: result.stats,
        compressionDue: result.compressionDue,
        facts: result.facts,
        ...(result.degraded.length > 0 ? { degraded: result.degraded } : {}),
      },
      201,
    );
  });

  app.openapi(contextRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const q = c.req.valid("query");
    const memory = await memoryFor(c, sessionId, q.userId);
    const context = await memory.getContext({ query: q.query, budget: q.budget, k: q.k, types: q.types });
    if (context.facts.length > 0) c.get("deps").background(memory.touchRecalled(context.facts));
    return c.json(
      {
        sessionId,
        messages: context.messages,
        tokens: context.tokens,
        budget: context.budget,
        recalled: context.facts.map((r) => ({
          id: r.fact.id,
          text: r.fact.text,
          type: r.fact.type,
          score: round(r.score),
          similarity: round(r.similarity),
        })),
        summary: context.summary,
        omitted: context.omitted,
        stats: context.stats,
        ...(context.degraded.length > 0 ? { degraded: context.degraded } : {}),
      },
      200,
    );
  });

  return app;
}

const round = (x: number): number => Math.round(x * 10_000) / 10_000;
