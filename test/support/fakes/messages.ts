/** Stored messages for tests. */
import type { StoredMessage } from "../../../src/memory/model.ts";

let messageSeq = 0;

/** A stored message for tests; `tokens` defaults to the content length. */
export function storedMessage(role: StoredMessage["role"], content: string, extra: Partial<StoredMessage> = {}): StoredMessage {
  messageSeq += 1;
  return { id: `m${messageSeq}`, role, content, tokens: content.length, importance: role === "system" ? 1 : 0.5, ts: messageSeq, ...extra };
}

/** An assistant message calling `ids.length` tools, followed by one result per call. */
export function toolExchange(ids: string[], tokens = 10, extra: Partial<StoredMessage> = {}): StoredMessage[] {
  const call = storedMessage("assistant", "", {
    tokens,
    tool_calls: ids.map((id) => ({ id, type: "function" as const, function: { name: "lookup", arguments: `{"q":"${id}"}` } })),
    ...extra,
  });
  return [call, ...ids.map((id) => storedMessage("tool", `result ${id}`, { tool_call_id: id, tokens, ...extra }))];
}
