import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { ID_MAX_LENGTH } from "../ids.ts";
import { LlmError } from "../llm/errors.ts";
import { sha256Hex } from "../memory/hash.ts";
import type { ContextResult, MemoryManager } from "../memory/manager.ts";
import type { ChatModel, ChatRequest, ChatUsage } from "../memory/ports.ts";
import type { IncomingMessage } from "../memory/types.ts";
import { scheduleAfterAppend } from "./background.ts";
import { ApiError } from "./errors.ts";
import { jsonLogger, memoryFor } from "./memory.ts";

export interface TurnInput {
  sessionId: string;
  userId: string | undefined;
  /** Messages to store before the LLM call: the user's message, and a system prompt to pin. */
  messages: IncomingMessage[];
  /** The batch's system messages replace differing pinned ones (an OpenAI-style client owns its prompt). */
  replaceSystem?: boolean | undefined;
  /** Text to recall facts for (the user's message). */
  query: string;
  /** Id of the stored reply: derived from the user message id so a retried turn stores it once. */
  replyId: string;
  model?: string | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
}

/** What a frontend may show or debug: what memory put into the prompt. */
export interface MemoryInfo {
  sessionId: string;
  recalled: { id: string; text: string; type: string; score: number }[];
  summaryVersion: number | null;
  contextTokens: ContextResult["tokens"];
  compressionDue: boolean;
  degraded?: string[];
}

export interface PreparedTurn {
  /** The reply a retried turn already got; it is answered again instead of calling the LLM. */
  stored: string | null;
  chat: ChatModel;
  memory: MemoryManager;
  request: ChatRequest;
  info: MemoryInfo;
  input: TurnInput;
}

const round = (x: number): number => Math.round(x * 10_000) / 10_000;

/**
 * The stored reply's id, derived from the user message id so a retried turn maps to the same reply:
 * `<id>.reply`, or for ids too long for that, a prefix plus a hash of the whole id.
 */
export async function replyIdFor(messageId: string): Promise<string> {
  if (messageId.length <= ID_MAX_LENGTH - ".reply".length) return `${messageId}.reply`;
  return `${messageId.slice(0, ID_MAX_LENGTH - 23)}.reply.${await sha256Hex(messageId, 8)}`;
}

/** One Redis round trip stores the user's message and returns the context (recall in parallel). */
export async function prepareTurn(c: Context<AppEnv>, input: TurnInput): Promise<PreparedTurn> {
  const chat = c.get("deps").chat;
  if (!chat) throw new ApiError(503, "llm_not_configured", "no LLM is configured: set OPENAI_API_KEY or OPENAI_BASE_URL");
  const memory = await memoryFor(c, input.sessionId, input.userId);
  const { add, context, snapshot } = await memory.addWithContext(input.messages, { query: input.query }, { replaceSystem: input.replaceSystem });
  const stored = snapshot.window.find((m) => m.id === input.replyId)?.content ?? null;
  scheduleAfterAppend(c, memory, { sessionId: input.sessionId, userId: input.userId, incoming: input.messages, result: { ...add, compressionDue: false } });
  if (context.facts.length > 0) c.get("deps").background(memory.touchRecalled(context.facts));
  const info: MemoryInfo = {
    sessionId: input.sessionId,
    recalled: context.facts.map((r) => ({ id: r.fact.id, text: r.fact.text, type: r.fact.type, score: round(r.score) })),
    summaryVersion: context.summary?.version ?? null,
    contextTokens: context.tokens,
    compressionDue: add.compressionDue,
    ...(context.degraded.length > 0 ? { degraded: context.degraded } : {}),
  };
  const request: ChatRequest = { messages: context.messages, model: input.model, temperature: input.temperature, maxTokens: input.maxTokens };
  return { stored, chat, memory, request, info, input };
}

/** Stores the reply (idempotent on its id) and schedules compression when the turn made it due. */
export async function storeReply(c: Context<AppEnv>, turn: PreparedTurn, content: string): Promise<MemoryInfo> {
  const reply: IncomingMessage = { id: turn.input.replyId, role: "assistant", content };
  const result = await turn.memory.add([reply]);
  scheduleAfterAppend(c, turn.memory, { sessionId: turn.input.sessionId, userId: turn.input.userId, incoming: [reply], result });
  return { ...turn.info, compressionDue: result.compressionDue };
}

/** The LLM failed: 502 with a safe message. The user's message stays stored; a retry does not duplicate it. */
export function llmFailure(err: unknown): ApiError {
  const kind = err instanceof LlmError ? err.kind : "upstream";
  const message = kind === "timeout" ? "the LLM did not answer in time" : kind === "bad_output" ? "the LLM returned an unusable answer" : "the LLM request failed";
  jsonLogger.warn("llm call failed", { kind, status: err instanceof LlmError ? err.status : undefined });
  return new ApiError(502, "llm_failed", `${message}; your message was stored, retry with the same message id`, { details: { kind }, cause: err });
}

export async function completeTurn(c: Context<AppEnv>, turn: PreparedTurn): Promise<{ content: string; model: string; usage: ChatUsage | null; info: MemoryInfo }> {
  if (turn.stored !== null) return { content: turn.stored, model: turn.request.model ?? c.get("config").llm?.model ?? "", usage: null, info: turn.info };
  let answer;
  try {
    answer = await turn.chat.complete(turn.request);
  } catch (err) {
    throw llmFailure(err);
  }
  if (answer.content.trim() === "") throw llmFailure(new LlmError("bad_output", "empty reply"));
  const info = await storeReply(c, turn, answer.content);
  return { ...answer, info };
}

/** How one streaming protocol renders its events. */
export interface StreamFormat {
  delta(content: string): string;
  done(content: string, info: MemoryInfo): string;
  error(err: ApiError): string;
}

/**
 * Streams the reply as server-sent events. Reading the LLM runs in waitUntil and never waits for
 * the client, so the full reply is stored even when the client disconnects mid-stream.
 */
export function streamTurn(c: Context<AppEnv>, turn: PreparedTurn, format: StreamFormat, headers: Record<string, string>): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let clientGone = false;
  const send = (text: string): void => {
    if (clientGone) return;
    writer.write(encoder.encode(text)).catch(() => {
      clientGone = true;
    });
  };
  const pump = (async () => {
    if (turn.stored !== null) {
      send(format.delta(turn.stored));
      send(format.done(turn.stored, turn.info));
      await writer.close().catch(() => undefined);
      return;
    }
    let content = "";
    try {
      for await (const delta of turn.chat.stream(turn.request)) {
        content += delta;
        send(format.delta(delta));
      }
      if (content.trim() === "") throw new LlmError("bad_output", "empty reply");
    } catch (err) {
      send(format.error(llmFailure(err)));
      await writer.close().catch(() => undefined);
      return;
    }
    try {
      send(format.done(content, await storeReply(c, turn, content)));
    } catch (err) {
      jsonLogger.error("storing a streamed reply failed", { session: turn.input.sessionId, error: String(err) });
      send(format.error(new ApiError(503, "upstream_unavailable", "the reply could not be stored; retry with the same message id")));
    }
    await writer.close().catch(() => undefined);
  })();
  c.get("deps").background(pump);
  return new Response(readable, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", ...headers },
  });
}

/** Response headers describing what memory injected (for frontends and debugging). */
export function memoryHeaders(info: MemoryInfo): Record<string, string> {
  return {
    "x-memory-session": info.sessionId,
    "x-memory-recalled": info.recalled.map((r) => `${r.id};score=${r.score}`).join(", "),
    "x-memory-summary-version": info.summaryVersion === null ? "none" : String(info.summaryVersion),
    "x-memory-context-tokens": String(info.contextTokens.total),
  };
}
