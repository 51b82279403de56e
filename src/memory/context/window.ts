/** @module Message token accounting: per-message token counts, stored-message form, importance defaults and window stats. */
import type { TokenCounter } from "../ports/llm.ts";
import type { IncomingMessage, SessionSnapshot, SessionTotals, StoredMessage, ToolCall } from "../model.ts";

/** Tokens a chat message costs beyond its text (role and separators), as in OpenAI's cookbook. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Extra tokens for a message's `name` field. */
export const NAME_OVERHEAD_TOKENS = 1;
/** Framing of one tool call (id, type and braces) beyond its name and arguments. */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;

/** Importance of a message that does not say; system messages are always 1. */
export const DEFAULT_IMPORTANCE = 0.5;

/** The token-relevant parts of a chat message. */
export interface CountableMessage {
  content: string;
  name?: string | undefined;
  tool_calls?: readonly ToolCall[] | undefined;
}

/** Tokens a message costs in a prompt: content, name, tool-call names and arguments, framing. */
export function countMessageTokens(message: CountableMessage, counter: TokenCounter): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + counter.count(message.content);
  if (message.name) tokens += NAME_OVERHEAD_TOKENS + counter.count(message.name);
  for (const call of message.tool_calls ?? []) {
    tokens += TOOL_CALL_OVERHEAD_TOKENS + counter.count(call.function.name) + counter.count(call.function.arguments);
  }
  return tokens;
}

/** 0..1 importance; system messages are pinned at 1, anything unusable becomes the default. */
export function normalizeImportance(role: IncomingMessage["role"], importance: number | undefined): number {
  if (role === "system") return 1;
  if (importance === undefined || !Number.isFinite(importance)) return DEFAULT_IMPORTANCE;
  return Math.min(1, Math.max(0, importance));
}

export interface StoreContext {
  counter: TokenCounter;
  now: number;
  newId: () => string;
}

/** The stored form of a message: id, importance and timestamp settled, tokens counted once. */
export function toStoredMessage(incoming: IncomingMessage, context: StoreContext): StoredMessage {
  const stored: StoredMessage = {
    id: incoming.id ?? context.newId(),
    role: incoming.role,
    content: incoming.content,
    tokens: countMessageTokens(incoming, context.counter),
    importance: normalizeImportance(incoming.role, incoming.importance),
    ts: context.now,
  };
  if (incoming.name !== undefined) stored.name = incoming.name;
  if (incoming.tool_calls !== undefined) stored.tool_calls = incoming.tool_calls;
  if (incoming.tool_call_id !== undefined) stored.tool_call_id = incoming.tool_call_id;
  if (incoming.metadata !== undefined) stored.metadata = incoming.metadata;
  return stored;
}

/** Sum of stored token counts; nothing is re-tokenized on read. */
export function sumTokens(messages: readonly StoredMessage[]): number {
  let total = 0;
  for (const m of messages) total += m.tokens;
  return total;
}

export interface WindowStats {
  /** Pinned system messages plus unsummarized window messages. */
  messages: number;
  /** Their stored tokens. */
  tokens: number;
  windowMessages: number;
  windowTokens: number;
  /** The compression threshold the window is measured against. */
  maxTokens: number;
  /** windowTokens / maxTokens: above 1 a compression is due (0 when maxTokens is 0). */
  utilization: number;
  /** Mean importance over all counted messages (system counts as 1); 0 when empty. */
  avgImportance: number;
}

/** A snapshot's totals: the running totals it carries, or, for a whole window, its messages' sums. */
export function snapshotTotals(
  snapshot: Pick<SessionSnapshot, "system" | "window"> &
    Partial<Pick<SessionSnapshot, "windowCount" | "windowTokens" | "windowImportanceMicros">>,
): SessionTotals {
  const micros = (messages: readonly StoredMessage[]) => messages.reduce((sum, m) => sum + Math.round(m.importance * 1_000_000), 0);
  const whole = snapshot.windowCount === undefined;
  return {
    systemCount: snapshot.system.length,
    systemTokens: sumTokens(snapshot.system),
    systemImportanceMicros: micros(snapshot.system),
    windowCount: whole ? snapshot.window.length : (snapshot.windowCount ?? 0),
    windowTokens: whole ? sumTokens(snapshot.window) : (snapshot.windowTokens ?? 0),
    windowImportanceMicros: whole ? micros(snapshot.window) : (snapshot.windowImportanceMicros ?? 0),
  };
}

/** Session statistics (message count, tokens, utilization, average importance) from stored counts only. */
export function windowStats(
  snapshot: Pick<SessionSnapshot, "system" | "window"> &
    Partial<Pick<SessionSnapshot, "windowCount" | "windowTokens" | "windowImportanceMicros">>,
  options: { maxTokens: number },
): WindowStats {
  return totalsStats(snapshotTotals(snapshot), options);
}

/** The same from running totals (what an append returns instead of the window). */
export function totalsStats(totals: SessionTotals, options: { maxTokens: number }): WindowStats {
  const count = totals.systemCount + totals.windowCount;
  const importance = (totals.systemImportanceMicros + totals.windowImportanceMicros) / 1_000_000;
  return {
    messages: count,
    tokens: totals.systemTokens + totals.windowTokens,
    windowMessages: totals.windowCount,
    windowTokens: totals.windowTokens,
    maxTokens: options.maxTokens,
    utilization: options.maxTokens > 0 ? totals.windowTokens / options.maxTokens : 0,
    avgImportance: count > 0 ? importance / count : 0,
  };
}
