/** @module The OpenAI-compatible POST /v1/chat/completions proxy: adds memory to the request and stores the turn. */
import { z } from "@hono/zod-openapi";
import { proxiedRefusal } from "../../memory/sessions/index.ts";
import { streamTurn, turnHeaders, type StreamFormat } from "../chat-stream.ts";
import { ApiError } from "../errors.ts";
import { actingUser } from "../acting-user.ts";
import { admit } from "../middleware/rate-limit.ts";
import { openAIError } from "../on-error.ts";
import { chunksFromOutcome, completionFromOutcome } from "../openai-render.ts";
import { CompletionBody, proxiedRequest } from "../openai-shapes.ts";
import { chatTurn } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { beginTrace, inlineTrace } from "../trace-view.ts";
import { CHAT_EXAMPLES, ChatCompletionSchema, CompletionEventStream } from "../schemas/chat-responses.ts";
import { IdSchema, IdempotencyKeySchema, errors, security } from "../schemas/common.ts";

const route = defineRoute(
  {
    method: "post",
    path: "/v1/chat/completions",
    summary:
      "OpenAI-compatible chat completions with memory (`user` or X-Memory-User names the memory user; session from X-Memory-Session, else the memory user); every field passes through",
    security,
    request: {
      headers: z.object({
        "x-memory-session": IdSchema.optional(),
        "x-memory-user": IdSchema.optional(),
        "idempotency-key": IdempotencyKeySchema.optional(),
        "x-memory-persist": z
          .enum(["true", "false"])
          .optional()
          .openapi({ description: "`true` keeps the last user message as a long-term fact, as sent" }),
        "x-memory-trace": z
          .enum(["0", "1"])
          .optional()
          .openapi({ description: "`1` returns the turn's trace inline (`trace` field of the completion)" }),
      }),
      body: { content: { "application/json": { schema: CompletionBody } }, required: true },
    },
    responses: {
      200: {
        description: "The upstream's chat.completion; with `stream: true`, its chat.completion.chunk events",
        content: {
          "application/json": { schema: ChatCompletionSchema, example: CHAT_EXAMPLES.completion },
          "text/event-stream": { schema: CompletionEventStream },
        },
      },
      ...errors(400, 401, 409, 413, 415, 502, 503),
    },
  },
  {
    // The session comes from X-Memory-Session: a token must send it (a key's request defaults to the user).
    access: chatTurn,
    // The handler calls `admit` before the LLM.
    parallelAdmit: true,
    doc: {
      operationId: "createChatCompletion",
      tag: "Chat",
      description:
        "OpenAI-compatible chat completions with memory: point an OpenAI SDK here. The `user` field (OpenAI's end-user id) names the memory user (`X-Memory-User` overrides it), the session comes from `X-Memory-Session` (default: the memory user, so `X-Memory-User` alone is enough; a token must send its session); `X-Memory-Persist: true` or `persist` on the last user message keeps it as a fact; earlier messages already in memory are not stored twice, nor is a message an SDK retries after a failure.",
    },
    example: {
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: "Where do I live?" },
      ],
    },
  },
);

/** The upstream's chunks as it sent them, `data: [DONE]` at the end, errors in OpenAI's shape. */
const proxyFormat = (model: string): StreamFormat => ({
  chunk: ({ chunk }) => `data: ${JSON.stringify(chunk)}\n\n`,
  replay: (reply) => chunksFromOutcome(reply, model),
  done: () => "data: [DONE]\n\n",
  error: (err) => `data: ${JSON.stringify(openAIError(err))}\n\ndata: [DONE]\n\n`,
});

/** `user` names the memory user (and so the session) when no header does; it must then be a valid id. */
function fromUserField(user: string | undefined): string | undefined {
  if (user === undefined) return undefined;
  if (!IdSchema.safeParse(user).success) {
    throw new ApiError(400, "validation_failed", "invalid body: user must be a valid id to name the memory user (or send X-Memory-User)");
  }
  return user;
}

export function completionRoutes() {
  const app = createRouter();
  app.openapi(route.route, async (c) => {
    const body = c.req.valid("json");
    const headers = c.req.valid("header");
    // The `user` field names the user only for a key's request: a token acts for its own user.
    const userId = actingUser(c, headers["x-memory-user"], () => fromUserField(body.user));
    // Without X-Memory-Session a key's request continues the memory user's own conversation; a
    // token must name its session (the access guard has already refused one that did not).
    const sessionId = headers["x-memory-session"] ?? (c.get("principal").kind === "key" ? userId : undefined);
    if (!sessionId)
      throw new ApiError(
        400,
        "validation_failed",
        "invalid header: x-memory-session is required (or name the memory user with X-Memory-User or the `user` field)",
      );
    beginTrace(c, "proxy", { sessionId, userId }, headers["x-memory-trace"] === "1");
    const request = proxiedRequest(body, headers["x-memory-persist"] === "true");
    const refused = proxiedRefusal(request.messages);
    if (refused !== null) throw new ApiError(400, "validation_failed", `invalid body: ${refused}`);
    // The LLM is called once the rate limiter admits the request (its messages are stored by then).
    const run = { admitted: () => admit(c), stream: body.stream === true };
    const turn = await c.get("memory").proxiedTurn({ sessionId, userId, key: headers["idempotency-key"], request }, run);
    // The route's text/event-stream answer: a plain Response.
    if (turn.kind === "stream") return streamTurn(c, turn.turn, proxyFormat(body.model));
    const { answer } = turn;
    // The upstream's completion as it sent it; when it is not OpenAI-shaped, the stored reply is answered in OpenAI's shape.
    const upstream = answer.body === null ? null : ChatCompletionSchema.safeParse(answer.body);
    if (upstream && !upstream.success) {
      const where = upstream.error.issues[0]?.path.join(".") ?? "";
      c.get("runtime").logger.warn("the upstream's completion is not a chat.completion: answered from the stored reply", { field: where });
    }
    const completion = upstream?.success ? upstream.data : completionFromOutcome(answer.reply, body.model);
    return c.json({ ...completion, ...inlineTrace(c) }, 200, turnHeaders(answer.memory, answer.replayed));
  });
  return app;
}

/** The routes this module mounts, for the route registry. */
export const completionRouteDefs: readonly DefinedRoute[] = [route];
