/** @module Zod response schemas and examples of the chat routes: the native turn, the OpenAI completion and the model list. */
import { z } from "@hono/zod-openapi";
import { InlineTrace } from "./observe-responses.ts";
import { SectionTokensSchema } from "./message-responses.ts";
import { ToolCallView } from "./session-responses.ts";

/** What the chat routes answer: the native turn, and the OpenAI-compatible completion and model list. */

export const TurnMemorySchema = z
  .object({
    sessionId: z.string(),
    recalled: z.array(z.object({ id: z.string(), text: z.string(), type: z.string(), score: z.number() })),
    summaryVersion: z.number().int().nullable(),
    contextTokens: SectionTokensSchema,
    compressionDue: z.boolean(),
    degraded: z.array(z.string()).optional(),
  })
  .openapi("TurnMemory", { description: "What memory put into the prompt (also in the X-Memory-* headers)" });

export const ChatReplySchema = z
  .object({ id: z.string(), role: z.literal("assistant"), content: z.string(), tool_calls: z.array(ToolCallView).optional() })
  .openapi("ChatReply");

export const ChatAnswerSchema = z
  .object({
    reply: ChatReplySchema,
    model: z.string(),
    usage: z
      .object({ promptTokens: z.number().int(), completionTokens: z.number().int(), totalTokens: z.number().int() })
      .nullable()
      .openapi({ description: "null when the reply came from storage (a retry spends no tokens)" }),
    memory: TurnMemorySchema,
    ...InlineTrace,
  })
  .openapi("ChatAnswer");

export type ChatAnswer = z.infer<typeof ChatAnswerSchema>;

/** `text/event-stream` of a streamed turn; the events are described, not typed (SSE is text). */
export const ChatEventStream = z.string().openapi({
  description: "`event: delta` `{content}` per chunk, then `event: done` `{reply, memory}`, or `event: error` `{error}`",
  example:
    'event: delta\ndata: {"content":"You live"}\n\nevent: done\ndata: {"reply":{"id":"r1","role":"assistant","content":"You live in Berlin."},"memory":{}}\n\n',
});

/** A tool call as the upstream wrote it: typed fields, and whatever else it adds, kept. */
const UpstreamToolCall = z
  .object({ id: z.string(), type: z.literal("function"), function: z.object({ name: z.string(), arguments: z.string() }).passthrough() })
  .passthrough();

/**
 * OpenAI's `chat.completion`: the fields memory relies on are typed; everything else the upstream
 * sends (system_fingerprint, service_tier, ...) passes through untouched. Every object is open, so a
 * body that parses comes out of `parse` exactly as it went in.
 */
export const ChatCompletionSchema = z
  .object({
    id: z.string(),
    object: z.literal("chat.completion"),
    created: z.number().int().openapi({ description: "Epoch seconds (OpenAI's convention)" }),
    model: z.string(),
    choices: z.array(
      z
        .object({
          index: z.number().int(),
          message: z
            .object({
              role: z.literal("assistant"),
              content: z.string().nullable(),
              tool_calls: z.array(UpstreamToolCall).optional(),
              refusal: z.string().nullable().optional(),
            })
            .passthrough(),
          finish_reason: z.string().nullable(),
          logprobs: z.unknown().optional(),
        })
        .passthrough(),
    ),
    usage: z
      .object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() })
      .passthrough()
      .optional(),
  })
  .passthrough()
  .openapi("ChatCompletion");

export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;

export const CompletionEventStream = z.string().openapi({
  description: "With `stream: true`: the upstream's `chat.completion.chunk` events as `data: {...}` lines, then `data: [DONE]`",
  example:
    'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\ndata: [DONE]\n\n',
});

export const ModelListSchema = z
  .object({
    object: z.literal("list"),
    data: z.array(
      z
        .object({ id: z.string(), object: z.string().optional(), created: z.number().optional(), owned_by: z.string().optional() })
        .passthrough(),
    ),
  })
  .passthrough()
  .openapi("ModelList");

export const CHAT_EXAMPLES = {
  answer: {
    reply: { id: "r1", role: "assistant" as const, content: "You live in Berlin." },
    model: "gpt-4o-mini",
    usage: { promptTokens: 41, completionTokens: 6, totalTokens: 47 },
    memory: {
      sessionId: "demo",
      recalled: [{ id: "f_3b1c9a0e5d7f2a46", text: "lives in Berlin", type: "fact", score: 0.8123 }],
      summaryVersion: null,
      contextTokens: { system: 20, summary: 0, facts: 12, window: 9, total: 41 },
      compressionDue: false,
    },
  },
  completion: {
    id: "chatcmpl-1",
    object: "chat.completion" as const,
    created: 1764590400,
    model: "gpt-4o-mini",
    choices: [
      {
        index: 0,
        message: { role: "assistant" as const, content: "You live in Berlin.", refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: { prompt_tokens: 41, completion_tokens: 6, total_tokens: 47 },
  },
  models: { object: "list" as const, data: [{ id: "gpt-4o-mini", object: "model", created: 0, owned_by: "agent-memory" }] },
};
