import { createRoute, z } from "@hono/zod-openapi";
import { replyIdFor } from "../../memory/chat-turn.ts";
import { memoryHeaders, streamTurn, type StreamFormat } from "../chat-stream.ts";
import { createRouter } from "../router.ts";
import { IdSchema, SessionParams, errorResponses, jsonResponse, security } from "../schemas/common.ts";

const ChatBody = z
  .object({
    message: z.string().trim().min(1),
    messageId: IdSchema.optional().openapi({ description: "Client id of the user message; a retried turn does not duplicate it" }),
    userId: IdSchema.optional(),
    persist: z.boolean().optional(),
    stream: z.boolean().optional(),
    model: z.string().min(1).max(128).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).max(100_000).optional(),
  })
  .strict()
  .openapi("ChatTurn");

const chatRoute = createRoute({
  method: "post",
  path: "/v1/sessions/{sessionId}/chat",
  summary: "One chat turn: store the message, build the context, call the LLM, store the reply",
  security,
  request: { params: SessionParams, body: { content: { "application/json": { schema: ChatBody } }, required: true } },
  responses: {
    200: jsonResponse(z.object({}).passthrough(), "The reply and what memory injected (or text/event-stream with stream: true)"),
    ...errorResponses,
    502: jsonResponse(z.object({}).passthrough(), "The LLM failed; the user message is stored"),
  },
});

const sse = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** `event: delta` per chunk, then `event: done` with the stored reply, or `event: error`. */
const chatStreamFormat = (replyId: string): StreamFormat => ({
  delta: (content) => sse("delta", { content }),
  done: (content, memory) => sse("done", { reply: { id: replyId, role: "assistant", content }, memory }),
  error: (err) => sse("error", err.toJSON()),
});

export function chatRoutes() {
  const app = createRouter();
  app.openapi(chatRoute, async (c) => {
    const { sessionId } = c.req.valid("param");
    const body = c.req.valid("json");
    const messageId = body.messageId ?? crypto.randomUUID();
    const replyId = await replyIdFor(messageId);
    const turn = await c.get("memory").startTurn({
      sessionId,
      userId: body.userId,
      messages: [{ id: messageId, role: "user", content: body.message, persist: body.persist }],
      query: body.message,
      replyId,
      model: body.model,
      temperature: body.temperature,
      maxTokens: body.maxTokens,
    });
    // A raw event stream is outside the typed JSON responses the route declares.
    if (body.stream) return streamTurn(c, turn, chatStreamFormat(replyId), memoryHeaders(turn.memory)) as never;
    const answer = await turn.complete(c.get("runtime").config.llm?.model ?? "");
    const reply = { id: replyId, role: "assistant", content: answer.content };
    return c.json({ reply, model: answer.model, usage: answer.usage, memory: answer.memory }, 200, memoryHeaders(answer.memory));
  });
  return app;
}
