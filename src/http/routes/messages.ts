/** @module The session message routes: append messages, and get the assembled context within a token budget. */
import { z } from "@hono/zod-openapi";
import { actingUser } from "../acting-user.ts";
import { round4, statsView } from "../render.ts";
import { sessionRead, sessionWrite } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { IdSchema, SessionParams, errors, queryInt, jsonResponse, security } from "../schemas/common.ts";
import { FactTypeList } from "../schemas/facts.ts";
import {
  AppendAnswerSchema,
  ContextAnswerSchema,
  MESSAGE_EXAMPLES,
  type AppendAnswer,
  type ContextAnswer,
} from "../schemas/message-responses.ts";
import { AppendBodySchema, toIncomingNative } from "../schemas/messages.ts";
import { TraceFlag, beginTrace, inlineTrace } from "../trace-view.ts";

const appendRoute = defineRoute(
  {
    method: "post",
    path: "/v1/sessions/{sessionId}/messages",
    summary: "Append messages (one Redis round trip); schedules compression when due",
    security,
    request: { params: SessionParams, body: { content: { "application/json": { schema: AppendBodySchema } }, required: true } },
    responses: { 201: jsonResponse(AppendAnswerSchema, "Appended", MESSAGE_EXAMPLES.append), ...errors(400, 401, 409, 413, 415, 503) },
  },
  {
    access: sessionWrite,
    doc: {
      operationId: "appendMessages",
      tag: "Messages",
      description:
        "Appends messages to the session window in one atomic step. Client message ids make retries idempotent; a system message is pinned; `persist: true` on a user message also queues it as a long-term fact. A message may carry `ts`, when it was written (importing history): dated messages go oldest first and never before the session's newest message. Compression is scheduled in the background when the window passes `maxTokens`.",
    },
    example: {
      userId: "xiaoming",
      messages: [
        { id: "sys", role: "system", content: "You are a helpful assistant." },
        { id: "m1", role: "user", content: "I moved to Berlin last month", persist: true },
        { id: "m2", role: "assistant", content: "How do you like Berlin so far?" },
      ],
    },
  },
);

const contextRoute = defineRoute(
  {
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
    responses: {
      200: jsonResponse(ContextAnswerSchema, "The context and what went into it", MESSAGE_EXAMPLES.context),
      ...errors(400, 401, 503),
    },
  },
  {
    access: sessionRead,
    doc: {
      operationId: "getContext",
      tag: "Messages",
      description:
        "The messages to send to an LLM, within a token budget: pinned system messages, the rolling summary, long-term facts recalled for `query` (when one is given and something relevant is found), then the newest window messages. Recalled facts are never written back to the window.",
    },
  },
);

export function messageRoutes() {
  const app = createRouter();

  app.openapi(appendRoute.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    const body = c.req.valid("json");
    const result = await c
      .get("memory")
      .append(sessionId, { userId: actingUser(c, body.userId), messages: body.messages.map(toIncomingNative) });
    return c.json(
      {
        sessionId,
        added: result.added,
        stats: statsView(result.stats),
        compressionDue: result.compressionDue,
        facts: result.facts,
      } satisfies AppendAnswer,
      201,
    );
  });

  app.openapi(contextRoute.route, async (c) => {
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
        recalled: context.facts.map((r) => ({
          id: r.fact.id,
          text: r.fact.text,
          type: r.fact.type,
          score: round4(r.score),
          similarity: round4(r.similarity),
        })),
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

/** The routes this module mounts, for the route registry. */
export const messageRouteDefs: readonly DefinedRoute[] = [appendRoute, contextRoute];
