/** @module Reads the assistant reply out of OpenAI-shaped answers, from a whole completion or from a streamed one's chunks. */
import { isValidToolCallId } from "../memory/ids.ts";
import type { ModelReply } from "../memory/ports/index.ts";
import type { JsonObject } from "../memory/model.ts";
import type { ToolCall } from "../memory/model.ts";
import { LlmError } from "../memory/errors.ts";

/**
 * Reads the assistant message out of OpenAI-shaped answers: a whole completion, or the chunks of a
 * streamed one (content deltas, tool-call deltas by index, finish reason, the usage chunk).
 */

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

function firstChoice(body: JsonObject): JsonObject | undefined {
  const choices = body.choices;
  return Array.isArray(choices) && isObject(choices[0]) ? choices[0] : undefined;
}

function usageOf(value: unknown): ModelReply["usage"] {
  if (!isObject(value) || typeof value.prompt_tokens !== "number" || typeof value.completion_tokens !== "number") return null;
  const total = typeof value.total_tokens === "number" ? value.total_tokens : value.prompt_tokens + value.completion_tokens;
  return { promptTokens: value.prompt_tokens, completionTokens: value.completion_tokens, totalTokens: total };
}

/** A reply memory can store: some text or some tool calls, every call id usable. */
function checked(reply: ModelReply): ModelReply {
  const calls = reply.tool_calls ?? [];
  if (reply.content.trim() === "" && calls.length === 0) throw new LlmError("bad_output", "LLM returned an empty answer");
  if (!calls.every((c) => isValidToolCallId(c.id) && c.function.name !== ""))
    throw new LlmError("bad_output", "LLM returned an unusable tool call");
  return reply;
}

function toolCallsOf(value: unknown): ToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).flatMap((c): ToolCall[] => {
    const fn = isObject(c.function) ? c.function : {};
    if (c.type !== undefined && c.type !== "function") return [];
    return [{ id: str(c.id) ?? "", type: "function", function: { name: str(fn.name) ?? "", arguments: str(fn.arguments) ?? "" } }];
  });
}

/** The reply of a non-streamed completion; `bad_output` when it holds neither text nor tool calls. */
export function replyFromCompletion(body: JsonObject, requestedModel: string): ModelReply {
  const choice = firstChoice(body);
  const message = isObject(choice?.message) ? choice.message : {};
  const calls = toolCallsOf(message.tool_calls);
  return checked({
    content: str(message.content) ?? str(message.refusal) ?? "",
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
    finishReason: str(choice?.finish_reason) ?? null,
    model: str(body.model) ?? requestedModel,
    usage: usageOf(body.usage),
  });
}

/** Assembles the reply of a stream chunk by chunk. */
export class ReplyAssembler {
  #content = "";
  #refusal = "";
  readonly #calls: ToolCall[] = [];
  #finish: string | null = null;
  #model: string;
  #usage: ModelReply["usage"] = null;

  constructor(requestedModel: string) {
    this.#model = requestedModel;
  }

  /** Takes one chunk in; returns the content text it adds. */
  add(chunk: JsonObject): string {
    if (typeof chunk.model === "string" && chunk.model !== "") this.#model = chunk.model;
    this.#usage = usageOf(chunk.usage) ?? this.#usage;
    const choice = firstChoice(chunk);
    if (!choice) return "";
    if (typeof choice.finish_reason === "string") this.#finish = choice.finish_reason;
    const delta = isObject(choice.delta) ? choice.delta : {};
    this.#refusal += str(delta.refusal) ?? "";
    if (Array.isArray(delta.tool_calls)) for (const part of delta.tool_calls) if (isObject(part)) this.#addCall(part);
    const text = str(delta.content) ?? "";
    this.#content += text;
    return text;
  }

  #addCall(part: JsonObject): void {
    const index =
      typeof part.index === "number" && Number.isInteger(part.index) && part.index >= 0 && part.index < 128
        ? part.index
        : this.#calls.length;
    const call = (this.#calls[index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
    const fn = isObject(part.function) ? part.function : {};
    if (typeof part.id === "string" && part.id !== "") call.id = part.id;
    call.function.name += str(fn.name) ?? "";
    call.function.arguments += str(fn.arguments) ?? "";
  }

  /** The whole reply; `bad_output` when the stream carried neither text nor tool calls. */
  reply(): ModelReply {
    const calls = this.#calls.filter((c): c is ToolCall => c !== undefined);
    return checked({
      content: this.#content !== "" ? this.#content : this.#refusal,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
      finishReason: this.#finish,
      model: this.#model,
      usage: this.#usage,
    });
  }
}
