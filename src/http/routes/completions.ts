import { createRoute, z } from "@hono/zod-openapi";
import { replyIdFor } from "../../memory/chat-turn.ts";
import { sha256Hex } from "../../memory/hash.ts";
import { isValidId } from "../../memory/ids.ts";
import type { IncomingMessage } from "../../memory/types.ts";
import { memoryHeaders, streamTurn, type StreamFormat } from "../chat-stream.ts";
import { ApiError } from "../errors.ts";
import { createRouter } from "../router.ts";
import { AnyObject, errorResponses, jsonResponse, security } from "../schemas/common.ts";

const TextPart = z.object({ type: z.literal("text"), text: z.string() }).passthrough();
const Content = z.union([z.string(), z.array(TextPart), z.null()]);
const ChatMessage = z.object({ role: z.enum(["system", "developer", "user", "assistant", "tool"]), content: Content.optional() }).passthrough();

/** The OpenAI request, leniently: unknown fields are accepted and ignored like OpenAI-compatible servers do. */
const CompletionBody = z
  .object({
    model: z.string().min(1).max(128),
    messages: z.array(ChatMessage).min(1).max(1000),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().min(1).max(100_000).optional(),
    max_completion_tokens: z.number().int().min(1).max(100_000).optional(),
    user: z.string().max(128).optional(),
  })
  .passthrough()
  .openapi("ChatCompletionRequest");

const route = createRoute({
  method: "post",
  path: "/v1/chat/completions",
  summary: "OpenAI-compatible chat completions with memory (session from X-Memory-Session or `user`)",
  security,
  request: { body: { content: { "application/json": { schema: CompletionBody } }, required: true } },
  responses: { 200: jsonResponse(AnyObject, "A chat.completion (or chat.completion.chunk events when streaming)"), ...errorResponses },
});

const textOf = (content: z.infer<typeof Content> | undefined): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => p.text).join("") : "";

const shortHash = (text: string): Promise<string> => sha256Hex(text, 12);

function pick(header: string | undefined, user: string | undefined, what: string): string | undefined {
  const value = header ?? user;
  if (value !== undefined && !isValidId(value)) throw new ApiError(400, "validation_failed", `invalid ${what}: use 1-128 characters of A-Z a-z 0-9 _ . -`);
  return value;
}

export function completionRoutes() {
  const app = createRouter();
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const sessionId = pick(c.req.header("x-memory-session"), body.user, "memory session");
    if (!sessionId) throw new ApiError(400, "validation_failed", "name the memory session: X-Memory-Session header or the `user` field");
    const userId = pick(c.req.header("x-memory-user"), body.user, "memory user");
    const last = body.messages.length - 1;
    const final = body.messages[last];
    const question = textOf(final?.content).trim();
    if (final?.role !== "user" || question === "") throw new ApiError(400, "validation_failed", "the last message must be a non-empty user message");
    // Ids from content (and, for the user message, its position) make retries idempotent: the
    // system prompt is pinned once (a changed prompt replaces it); earlier messages are already in
    // memory and are not re-sent.
    const incoming: IncomingMessage[] = [];
    for (const m of body.messages) {
      const text = textOf(m.content).trim();
      if ((m.role === "system" || m.role === "developer") && text !== "") {
        incoming.push({ id: `sys-${await shortHash(text)}`, role: "system", content: text });
      }
    }
    const messageId = `u-${await shortHash(`${last}\u0000${question}`)}`;
    incoming.push({ id: messageId, role: "user", content: question });
    const turn = await c.get("memory").startTurn({
      sessionId,
      userId,
      messages: incoming,
      replaceSystem: true,
      query: question,
      replyId: await replyIdFor(messageId),
      model: body.model,
      temperature: body.temperature,
      maxTokens: body.max_completion_tokens ?? body.max_tokens,
    });
    const id = `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`;
    const created = Math.floor(Date.now() / 1000);
    if (body.stream) {
      const chunk = (delta: Record<string, string>, finish: string | null) =>
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      let first = true;
      const format: StreamFormat = {
        delta: (content) => {
          const text = chunk(first ? { role: "assistant", content } : { content }, null);
          first = false;
          return text;
        },
        done: () => `${chunk({}, "stop")}data: [DONE]\n\n`,
        error: (err) => `data: ${JSON.stringify(err.toJSON())}\n\ndata: [DONE]\n\n`,
      };
      // A raw event stream is outside the typed JSON responses the route declares.
      return streamTurn(c, turn, format, memoryHeaders(turn.memory)) as never;
    }
    const answer = await turn.complete(body.model);
    const usage = answer.usage
      ? { prompt_tokens: answer.usage.promptTokens, completion_tokens: answer.usage.completionTokens, total_tokens: answer.usage.totalTokens }
      : undefined;
    return c.json(
      {
        id,
        object: "chat.completion",
        created,
        model: answer.model,
        choices: [{ index: 0, message: { role: "assistant", content: answer.content }, finish_reason: "stop", logprobs: null }],
        ...(usage ? { usage } : {}),
        memory: answer.memory,
      },
      200,
      memoryHeaders(answer.memory),
    );
  });
  return app;
}
