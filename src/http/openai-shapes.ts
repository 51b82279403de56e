import { z } from "@hono/zod-openapi";
import { sha256Hex } from "../memory/hash.ts";
import type { JsonObject } from "../memory/ports.ts";
import { turnRecallQuery } from "../memory/recall.ts";
import type { IncomingMessage, TurnOutcome } from "../memory/types.ts";
import { ApiError } from "./errors.ts";
import type { ChatCompletion } from "./schemas/chat-responses.ts";
import { ProxyMessageSchema, toIncoming } from "./schemas/messages.ts";

/**
 * Translation between OpenAI's chat-completions shapes and a chat turn: what a proxied request
 * asks memory to store, and how a recorded reply is answered again in OpenAI's shape.
 */

/** The OpenAI request: the fields memory reads are checked, every other one passes through as sent. */
export const CompletionBody = z
  .object({
    model: z.string().min(1).max(256),
    messages: z.array(ProxyMessageSchema).min(1),
    stream: z.boolean().optional(),
    user: z.string().max(256).optional(),
  })
  .passthrough()
  .openapi("ChatCompletionRequest");

export type CompletionRequest = z.infer<typeof CompletionBody>;

export interface ProxiedTurn {
  /** The system prompt to pin, then the new end of the conversation. */
  messages: IncomingMessage[];
  /** The last user message, to recall facts for. */
  query: string;
  /** Everything but `messages` and `stream`, for the model as the client sent it. */
  fields: JsonObject;
  /**
   * A hash of the request's messages and fields: an SDK's automatic retry of a failed request
   * sends the same body, so it has the same tag (see `AppendOptions.retryTag`).
   */
  retryTag: string;
}

const hasCalls = (m: IncomingMessage): boolean => m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0;

/**
 * What a request (the whole conversation, as OpenAI clients send it) adds to memory: its system
 * prompt, pinned by content (a changed prompt replaces it), and its end: the last user message,
 * or the tool results it ends with, together with the tool-call exchanges right before. Those
 * carry their call ids, so an exchange memory already holds (the reply of the previous turn) is
 * not stored twice. Earlier messages are in memory already and are not stored again.
 */
export async function proxiedTurn(body: CompletionRequest, options: { persist?: boolean | undefined } = {}): Promise<ProxiedTurn> {
  const all = body.messages.map(toIncoming);
  const last = all.at(-1);
  if (!last || (last.role !== "user" && last.role !== "tool")) {
    throw new ApiError(400, "validation_failed", "invalid body: messages must end with a user message or a tool result");
  }
  const tail: IncomingMessage[] = [];
  let i = all.length - 1;
  // Kept as a fact as sent: the header marks the last user message, or the message marks itself.
  if (last.role === "user") tail.unshift(options.persist || body.messages.at(-1)?.persist === true ? { ...all[i--]!, persist: true } : all[i--]!);
  for (; i >= 0; i--) {
    const m = all[i]!;
    if (m.role === "tool" || hasCalls(m)) tail.unshift(m);
    else if (m.role !== "system") break;
  }
  const system: IncomingMessage[] = [];
  for (const m of all) {
    if (m.role === "system" && m.content.trim() !== "") system.push({ ...m, id: `sys-${await sha256Hex(m.content.trim(), 12)}`, content: m.content.trim() });
  }
  const { messages: _messages, stream: _stream, ...fields } = body;
  const lastUser = all.findLastIndex((m) => m.role === "user");
  // A short follow-up ("and her birthday?") is searched together with the turns before it.
  const query = lastUser < 0 ? "" : turnRecallQuery(all[lastUser]!.content, all.slice(0, lastUser));
  const retryTag = await sha256Hex(`proxy\u0000${JSON.stringify(body)}\u0000${options.persist === true}`, 16);
  return { messages: [...system, ...tail], query, fields, retryTag };
}

/** The assistant message of a recorded reply, as OpenAI writes it (`content: null` beside tool calls). */
function messageOf(reply: TurnOutcome): ChatCompletion["choices"][number]["message"] {
  const stored = reply.tool_calls && reply.tool_calls.length > 0 ? reply.tool_calls : undefined;
  const calls = stored?.map((c) => ({ id: c.id, type: c.type, function: { name: c.function.name, arguments: c.function.arguments } }));
  return { role: "assistant", content: calls && reply.content === "" ? null : reply.content, ...(calls ? { tool_calls: calls } : {}), refusal: null };
}

const finishOf = (reply: TurnOutcome): string => reply.finishReason ?? (reply.tool_calls?.length ? "tool_calls" : "stop");

/** Ids and timestamps of an answer made from storage. */
function frame(reply: TurnOutcome, model: string) {
  return { id: `chatcmpl-${reply.id.replace(/[^A-Za-z0-9]/g, "").slice(0, 40)}`, created: Math.floor(Date.now() / 1000), model: reply.model || model };
}

/** A `chat.completion` for a recorded reply (no usage: no tokens were spent). */
export function completionFromOutcome(reply: TurnOutcome, model: string): ChatCompletion {
  const choice = { index: 0, message: messageOf(reply), logprobs: null, finish_reason: finishOf(reply) };
  return { ...frame(reply, model), object: "chat.completion", choices: [choice] };
}

/** The `chat.completion.chunk` events of a recorded reply: role and text, tool calls, the finish. */
export function chunksFromOutcome(reply: TurnOutcome, model: string): string {
  const base = { ...frame(reply, model), object: "chat.completion.chunk" };
  const event = (delta: JsonObject, finish: string | null): string =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  const calls = (reply.tool_calls ?? []).map((call, index) => ({ index, ...call }));
  return [
    event({ role: "assistant", content: reply.content }, null),
    calls.length > 0 ? event({ tool_calls: calls }, null) : "",
    event({}, finishOf(reply)),
  ].join("");
}
