/** @module Groups messages into units kept or dropped together: a tool-calling assistant message with its tool results. */
import type { StoredMessage } from "../model.ts";

/**
 * Messages that must be kept or dropped together: an assistant message with `tool_calls` and the
 * `tool` results that answer it right after it, or any other single message. Chat APIs reject a
 * tool result whose call is missing, so such a result forms an `orphan` unit of its own.
 */
export interface MessageUnit {
  /** Index of the first message in the list. */
  start: number;
  /** Index after the last message. */
  end: number;
  tokens: number;
  /** Highest importance of the unit's messages. */
  importance: number;
  orphan: boolean;
}

/** Groups `messages` (oldest first) into units covering the list in order. */
export function groupUnits(messages: readonly StoredMessage[]): MessageUnit[] {
  const units: MessageUnit[] = [];
  let i = 0;
  while (i < messages.length) {
    const first = messages[i]!;
    let end = i + 1;
    if (first.role === "assistant" && first.tool_calls && first.tool_calls.length > 0) {
      const callIds = new Set(first.tool_calls.map((c) => c.id));
      while (end < messages.length) {
        const next = messages[end]!;
        if (next.role !== "tool" || next.tool_call_id === undefined || !callIds.has(next.tool_call_id)) break;
        end++;
      }
    }
    let tokens = 0;
    let importance = 0;
    for (let j = i; j < end; j++) {
      tokens += messages[j]!.tokens;
      importance = Math.max(importance, messages[j]!.importance);
    }
    units.push({ start: i, end, tokens, importance, orphan: first.role === "tool" });
    i = end;
  }
  return units;
}
