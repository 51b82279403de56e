/** @module The POST /v1/sessions/{sessionId}/chat route: one chat turn with memory, answered as JSON or a server-sent stream. */
import { z } from "@hono/zod-openapi";
import type { TurnOutcome } from "../../memory/model.ts";
import { streamTurn, turnHeaders, type StreamFormat } from "../chat-stream.ts";
import { actingUser } from "../acting-user.ts";
import { admit } from "../middleware/rate-limit.ts";
import { chatTurn } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { TraceFlag, beginTrace, inlineTrace } from "../trace-view.ts";
import { CHAT_EXAMPLES, ChatAnswerSchema, ChatEventStream, type ChatAnswer } from "../schemas/chat-responses.ts";
import { IdSchema, IdempotencyKeySchema, SessionParams, errors, security } from "../schemas/common.ts";

const ChatBody = z
  .object({
    message: z.string().trim().min(1),
    messageId: IdSchema.optional().openapi({
      description: "Client id of the user message; also the turn's idempotency key unless the header names one",
    }),
    userId: IdSchema.optional(),
    persist: z.boolean().optional(),
    stream: z.boolean().optional(),
    model: z.string().min(1).max(256).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).optional(),
  })
  .strict()
  .openapi("ChatTurn");

const chatRoute = defineRoute(
  {
    method: "post",
    path: "/v1/sessions/{sessionId}/chat",
    summary: "One chat turn: store the message, build the context, call the LLM, store the reply",
    security,
    request: {
      params: SessionParams,
      query: z.object({ trace: TraceFlag }),
      headers: z.object({ "idempotency-key": IdempotencyKeySchema.optional() }),
      body: { content: { "application/json": { schema: ChatBody } }, required: true },
    },
    responses: {
      200: {
        description: "The reply and what memory injected; with `stream: true`, the same as server-sent events",
        content: {
          "application/json": { schema: ChatAnswerSchema, example: CHAT_EXAMPLES.answer },
          "text/event-stream": { schema: ChatEventStream },
        },
      },
      ...errors(400, 401, 409, 413, 415, 502, 503),
    },
  },
  {
    access: chatTurn,
    // The handler calls `admit` before the LLM.
    parallelAdmit: true,
    doc: {
      operationId: "chat",
      tag: "Chat",
      description:
        "One chat turn: stores the user message, assembles the context, calls the LLM and stores the reply. With `stream: true` the answer is `text/event-stream`: `event: delta` per chunk, then `event: done` with the stored reply and what memory injected, or `event: error`.",
    },
    example: { message: "Where do I live?", messageId: "c1", userId: "xiaoming", stream: false },
  },
);

const sse = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const replyView = (reply: TurnOutcome) => ({
  id: reply.id,
  role: "assistant" as const,
  content: reply.content,
  ...(reply.tool_calls ? { tool_calls: reply.tool_calls } : {}),
});

/** `event: delta` per chunk of text, then `event: done` with the stored reply, or `event: error`. */
const chatStreamFormat: StreamFormat = {
  chunk: (chunk) => (chunk.text === "" ? "" : sse("delta", { content: chunk.text })),
  replay: (reply) => sse("delta", { content: reply.content }),
  done: ({ reply, memory }) => sse("done", { reply: replyView(reply), memory }),
  error: (err) => sse("error", err.toJSON()),
};

export function chatRoutes() {
  const app = createRouter();
  app.openapi(chatRoute.route, async (c) => {
    const { sessionId } = c.req.valid("param");
    const body = c.req.valid("json");
    const userId = actingUser(c, body.userId);
    beginTrace(c, "chat", { sessionId, userId }, c.req.valid("query").trace === true);
    const fields = { model: body.model, temperature: body.temperature, max_tokens: body.maxTokens };
    const input = {
      sessionId,
      userId,
      messages: [{ id: body.messageId, role: "user" as const, content: body.message, persist: body.persist }],
      query: body.message,
      followUpFromWindow: true,
      key: c.req.valid("header")["idempotency-key"] ?? body.messageId,
      fields: Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
    };
    // The message is stored (as when the LLM fails); the LLM is not called for a refused client.
    const turn = await c.get("memory").chatTurn(input, { admitted: () => admit(c), stream: body.stream === true });
    // The route's text/event-stream answer: a plain Response.
    if (turn.kind === "stream") return streamTurn(c, turn.turn, chatStreamFormat);
    const { reply, usage, memory, replayed } = turn.answer;
    return c.json(
      { reply: replyView(reply), model: reply.model, usage, memory, ...inlineTrace(c) } satisfies ChatAnswer,
      200,
      turnHeaders(memory, replayed),
    );
  });
  return app;
}

/** The routes this module mounts, for the route registry. */
export const chatRouteDefs: readonly DefinedRoute[] = [chatRoute];
