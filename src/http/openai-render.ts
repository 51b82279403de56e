/** @module Renders a recorded reply in OpenAI's shape, as a chat.completion or its stream of chunks, for replayed requests. */
import type { JsonObject } from "../memory/model.ts";
import type { TurnOutcome } from "../memory/model.ts";
import type { ChatCompletion } from "./schemas/chat-responses.ts";

/** A recorded reply answered again in OpenAI's shape: a `chat.completion`, or its stream of chunks. */

/** The assistant message of a recorded reply, as OpenAI writes it (`content: null` beside tool calls). */
function messageOf(reply: TurnOutcome): ChatCompletion["choices"][number]["message"] {
  const stored = reply.tool_calls && reply.tool_calls.length > 0 ? reply.tool_calls : undefined;
  const calls = stored?.map((c) => ({ id: c.id, type: c.type, function: { name: c.function.name, arguments: c.function.arguments } }));
  return {
    role: "assistant",
    content: calls && reply.content === "" ? null : reply.content,
    ...(calls ? { tool_calls: calls } : {}),
    refusal: null,
  };
}

const finishOf = (reply: TurnOutcome): string => reply.finishReason ?? (reply.tool_calls?.length ? "tool_calls" : "stop");

/** Ids and timestamps of an answer made from storage. */
function frame(reply: TurnOutcome, model: string) {
  return {
    id: `chatcmpl-${reply.id.replace(/[^A-Za-z0-9]/g, "").slice(0, 40)}`,
    created: Math.floor(Date.now() / 1000),
    model: reply.model || model,
  };
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
