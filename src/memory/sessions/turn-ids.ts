/** @module Message ids of a chat turn derived from idempotency keys, message ids and tool call ids so retries store nothing twice. */
import { sha256Hex } from "../hash.ts";
import { ID_MAX_LENGTH } from "../ids.ts";
import type { IncomingMessage, ToolCall } from "../model.ts";

/**
 * Message ids of a chat turn. A retry is recognized only by something the client named: its
 * idempotency key, its message id, or the ids of tool calls (which the provider made unique). Two
 * identical texts without either are two turns.
 */

/** The form an idempotency key is stored under (any text up to 256 characters, hashed). */
export function turnKey(key: string): Promise<string> {
  return sha256Hex(`turn\u0000${key}`, 16);
}

/**
 * The stored reply's id, derived from the user message id so a retried turn maps to the same reply:
 * `<id>.reply`, or for ids too long for that, a prefix plus a hash of the whole id.
 */
export async function replyIdFor(messageId: string): Promise<string> {
  if (messageId.length <= ID_MAX_LENGTH - ".reply".length) return `${messageId}.reply`;
  return `${messageId.slice(0, ID_MAX_LENGTH - 23)}.reply.${await sha256Hex(messageId, 8)}`;
}

/** An assistant message calling tools is named by its calls, so echoing it back stores nothing twice. */
export async function toolCallMessageId(calls: readonly ToolCall[]): Promise<string> {
  return `tc-${await sha256Hex(calls.map((c) => c.id).join(" "), 12)}`;
}

/** A tool result is named by the call it answers. */
export async function toolResultMessageId(callId: string): Promise<string> {
  return `tr-${await sha256Hex(callId, 12)}`;
}

/**
 * Gives every message of a turn without a client id its id: tool calls and results by their call
 * ids, a user message by the idempotency key when there is one (else a fresh id).
 */
export async function assignTurnIds(
  messages: readonly IncomingMessage[],
  key: string | undefined,
  newId: () => string,
): Promise<IncomingMessage[]> {
  let users = 0;
  const out: IncomingMessage[] = [];
  for (const m of messages) {
    if (m.id !== undefined) out.push(m);
    else if (m.role === "assistant" && m.tool_calls && m.tool_calls.length > 0)
      out.push({ ...m, id: await toolCallMessageId(m.tool_calls) });
    else if (m.role === "tool" && m.tool_call_id !== undefined) out.push({ ...m, id: await toolResultMessageId(m.tool_call_id) });
    else if (m.role === "user" && key !== undefined) out.push({ ...m, id: `k-${await sha256Hex(`${key}\u0000${users++}`, 12)}` });
    else out.push({ ...m, id: newId() });
  }
  return out;
}
