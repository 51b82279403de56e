/** @module Message write limits: batch size, content length, metadata size and depth, tool result pairing. */
import { MemoryError } from "../errors.ts";
import type { MessageLimits } from "../tenant-deps.ts";
import type { IncomingMessage } from "../model.ts";

export { datedMessages, messageTimes } from "./message-times.ts";

/** Metadata nests at most this deep: stored messages must stay decodable by every reader. */
export const METADATA_MAX_DEPTH = 8;
/** Metadata of one message or fact serializes to at most this many characters. */
export const METADATA_MAX_CHARS = 4096;

/** Nesting depth of a JSON value (a scalar is 0, `{}` is 1); stops counting past `limit`. */
export function jsonDepth(value: unknown, limit = METADATA_MAX_DEPTH + 1): number {
  if (typeof value !== "object" || value === null) return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const inner of Object.values(value)) {
    deepest = Math.max(deepest, jsonDepth(inner, limit - 1));
    if (deepest >= limit) break;
  }
  return 1 + deepest;
}

/** Why a metadata value cannot be stored, or null when it can. */
export function metadataProblem(metadata: unknown): string | null {
  if (jsonDepth(metadata) > METADATA_MAX_DEPTH) return `metadata must nest at most ${METADATA_MAX_DEPTH} levels`;
  if (JSON.stringify(metadata).length > METADATA_MAX_CHARS) return `metadata must serialize to at most ${METADATA_MAX_CHARS} characters`;
  return null;
}

/** Who wrote a batch: a client (every limit applies), or the model answering a chat turn. */
export type MessageSource = "client" | "model";

/**
 * The limits every write path applies to messages (native append, chat turn, proxied completion),
 * checked before anything is stored: the batch size, each content and each tool call's arguments
 * against `maxMessageChars`, metadata size and depth, and tool results answering a call.
 */
export function checkMessages(messages: readonly IncomingMessage[], limits: MessageLimits, source: MessageSource = "client"): void {
  if (messages.length > limits.maxMessagesPerRequest) {
    throw new MemoryError("invalid", `at most ${limits.maxMessagesPerRequest} messages per request`);
  }
  // The character limit bounds what clients send; the model's own reply is stored whole (its
  // length is bounded by the request's max_tokens), so a long answer is never lost.
  if (source === "model") {
    checkToolPairs(messages);
    return;
  }
  messages.forEach((m, i) => {
    if (m.content.length > limits.maxMessageChars) {
      throw new MemoryError("too_large", `messages.${i}.content exceeds ${limits.maxMessageChars} characters`);
    }
    m.tool_calls?.forEach((call, j) => {
      if (call.function.arguments.length > limits.maxMessageChars) {
        throw new MemoryError("too_large", `messages.${i}.tool_calls.${j}.function.arguments exceeds ${limits.maxMessageChars} characters`);
      }
    });
    const problem = m.metadata === undefined ? null : metadataProblem(m.metadata);
    if (problem) throw new MemoryError("invalid", `messages.${i}.${problem}`);
  });
  checkToolPairs(messages);
}

/** Why a tool result cannot be stored: it answers no open call. */
export function orphanToolMessage(index: number, callId: string): MemoryError {
  return new MemoryError(
    "invalid",
    `messages.${index} is a tool result for call ${callId}, which the assistant message right before it (in this request or stored) did not make`,
  );
}

/**
 * A tool result must follow the assistant message that made its call, with only other results in
 * between. Within the batch that is checked here; results at the start of a batch answer calls of
 * the stored window, which the store checks in the same atomic step as the append.
 */
function checkToolPairs(messages: readonly IncomingMessage[]): void {
  let open: Set<string> | null = null; // null: the calls still open in storage, unknown here
  messages.forEach((m, i) => {
    if (m.role === "system") return;
    if (m.role === "assistant" && m.tool_calls && m.tool_calls.length > 0) open = new Set(m.tool_calls.map((c) => c.id));
    else if (m.role === "tool") {
      const calls: Set<string> | null = open;
      if (calls !== null && (m.tool_call_id === undefined || !calls.has(m.tool_call_id)))
        throw orphanToolMessage(i, m.tool_call_id ?? "(none)");
    } else open = new Set();
  });
}
