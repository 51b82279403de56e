/** @module Chat turn: stores new messages, builds context, calls the model, stores the reply; also OpenAI-style proxied requests. */
import type { TenantDeps } from "../tenant-deps.ts";
import { UpstreamUnavailable } from "../errors.ts";
import { sha256Hex } from "../hash.ts";
import { SessionMemory, type SessionMemoryDeps } from "./session-memory.ts";
import type { ContextResult } from "./requests.ts";
import type { ChatModel, ChatUsage, ModelReply, PassThroughChunk, PassThroughRequest } from "../ports/llm.ts";
import type { JsonObject } from "../model.ts";
import { turnRecallQuery } from "../facts/recall-query.ts";
import { assignTurnIds, replyIdFor, toolCallMessageId, turnKey } from "./turn-ids.ts";
import { NO_TRACE, timed, type TraceRecorder } from "../observe/trace.ts";
import type { IncomingMessage, TurnOutcome } from "../model.ts";

/** What a chat turn runs on: one session's memory and the chat model. */
export type ChatTurnDeps = SessionMemoryDeps & Pick<TenantDeps, "chat">;

export interface TurnInput {
  sessionId: string;
  userId: string | undefined;
  /**
   * Messages to store before the model call: the new end of the conversation (a user message, or
   * an assistant tool call and its results) and a system prompt to pin. Ids are assigned when
   * absent (see `assignTurnIds`).
   */
  messages: IncomingMessage[];
  /** The batch's system messages replace differing pinned ones (an OpenAI-style client owns its prompt). */
  replaceSystem?: boolean | undefined;
  /** Text to recall facts for (the user's message). */
  query: string;
  /** The conversation before `query` is only in the session (`/chat`): see `ContextRequest.followUpFromWindow`. */
  followUpFromWindow?: boolean | undefined;
  /** The client's idempotency key: a retry with it answers from storage and never calls the model. */
  key?: string | undefined;
  /** The model request's fields (model, temperature, tools, ...), passed to the model unchanged. */
  fields: JsonObject;
  /** Names the client request (see `AppendOptions.retryTag`): its automatic retry after a failure is the same turn. */
  retryTag?: string | undefined;
}

/** An OpenAI-style request, which sends the whole conversation every time. */
export interface ProxiedRequest {
  /**
   * The request as the client sent it: every field but `messages` and `stream` goes to the model
   * unchanged, and the whole of it names the request for retries.
   */
  body: JsonObject;
  /** `body.messages` in the domain's shape; a `persist` mark counts on the last user message only. */
  messages: IncomingMessage[];
  /** The client asks to keep the last user message as a long-term fact, as sent (besides the message's own mark). */
  persist?: boolean | undefined;
}

/** What a proxied request adds to a turn (see {@link TurnInput}). */
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

/** Why a proxied conversation has nothing to answer, or null: it must end with a user message or a tool result. */
export function proxiedRefusal(messages: readonly IncomingMessage[]): string | null {
  const last = messages.at(-1);
  return last && (last.role === "user" || last.role === "tool") ? null : "messages must end with a user message or a tool result";
}

/**
 * What a request (the whole conversation, as OpenAI clients send it) adds to memory: its system
 * prompt, pinned by content (a changed prompt replaces it), and its end: the last user message,
 * or the tool results it ends with, together with the tool-call exchanges right before. Those
 * carry their call ids, so an exchange memory already holds (the reply of the previous turn) is
 * not stored twice. Earlier messages are in memory already and are not stored again. Refused
 * when the conversation ends with neither a user message nor a tool result: nothing to answer.
 */
export async function proxiedTurn(request: ProxiedRequest): Promise<ProxiedTurn | { refused: string }> {
  const marked = request.messages.at(-1)?.persist === true;
  // Only the last user message may be kept as a fact; a mark on any other message is not memory's.
  const all = request.messages.map(({ persist: _persist, ...m }): IncomingMessage => m);
  const refused = proxiedRefusal(all);
  if (refused !== null) return { refused };
  // Not empty: it ends with a user message or a tool result.
  const last = all.at(-1)!;
  const tail: IncomingMessage[] = [];
  let i = all.length - 1;
  // Kept as a fact as sent: the request marks the last user message, or the message marks itself.
  if (last.role === "user") tail.unshift(request.persist || marked ? { ...all[i--]!, persist: true } : all[i--]!);
  for (; i >= 0; i--) {
    const m = all[i]!;
    if (m.role === "tool" || hasCalls(m)) tail.unshift(m);
    else if (m.role !== "system") break;
  }
  const system: IncomingMessage[] = [];
  for (const m of all) {
    if (m.role === "system" && m.content.trim() !== "")
      system.push({ ...m, id: `sys-${await sha256Hex(m.content.trim(), 12)}`, content: m.content.trim() });
  }
  const { messages: _messages, stream: _stream, ...fields } = request.body;
  const lastUser = all.findLastIndex((m) => m.role === "user");
  // A short follow-up ("and her birthday?") is searched together with the turns before it.
  const query = lastUser < 0 ? "" : turnRecallQuery(all[lastUser]!.content, all.slice(0, lastUser));
  const retryTag = await sha256Hex(`proxy\u0000${JSON.stringify(request.body)}\u0000${request.persist === true}`, 16);
  return { messages: [...system, ...tail], query, fields, retryTag };
}

/** What a frontend may show or debug: what memory put into the prompt. */
export interface TurnMemory {
  sessionId: string;
  recalled: { id: string; text: string; type: string; score: number }[];
  summaryVersion: number | null;
  contextTokens: ContextResult["tokens"];
  compressionDue: boolean;
  degraded?: string[] | undefined;
}

export interface TurnAnswer {
  /** The stored reply: this call's, or on a retry the one recorded for the key. */
  reply: TurnOutcome;
  /** The completion as the model sent it; null when the reply came from storage. */
  body: JsonObject | null;
  usage: ChatUsage | null;
  replayed: boolean;
  memory: TurnMemory;
}

const round = (x: number): number => Math.round(x * 10_000) / 10_000;

/** What a started turn holds until the model answers. */
interface TurnState {
  sessionMemory: SessionMemory;
  chat: ChatModel;
  request: PassThroughRequest;
  /** The stored form of the idempotency key; undefined without one. */
  key: string | undefined;
  /** Id a text reply is stored under. */
  replyId: string;
  replayed: TurnOutcome | null;
  memory: TurnMemory;
  trace: TraceRecorder;
  now: () => number;
  /** When the turn began (ms). */
  startedAt: number;
}

/**
 * One chat turn: store the new messages and read the context in one Redis round trip (recall in
 * parallel), call the model with the client's fields and memory's messages, store the reply, then
 * compress in the background when due. With an idempotency key the reply is recorded under it in
 * the same step: a retry answers with it from that record, even after the reply was summarized.
 */
export class ChatTurn {
  readonly #s: Omit<TurnState, "replayed" | "memory">;
  /** The outcome recorded for this turn's key by an earlier call; null for a new turn. */
  readonly replayed: TurnOutcome | null;
  memory: TurnMemory;

  private constructor(state: TurnState) {
    const { replayed, memory, ...rest } = state;
    this.#s = rest;
    this.replayed = replayed;
    this.memory = memory;
  }

  static async start(deps: ChatTurnDeps, input: TurnInput): Promise<ChatTurn> {
    const chat = deps.chat;
    if (!chat)
      throw new UpstreamUnavailable("llm", "no LLM is configured: set OPENAI_API_KEY or OPENAI_BASE_URL", { reason: "not_configured" });
    // Before the user message is stored: an erase from then on keeps the reply out.
    const startedAt = deps.now();
    const key = input.key === undefined ? undefined : await turnKey(input.key);
    const messages = await assignTurnIds(input.messages, key, deps.newId);
    const first = new SessionMemory(deps, { sessionId: input.sessionId, userId: input.userId });
    const { add, context, snapshot } = await first.addWithContext(
      messages,
      { query: input.query, countRecalls: false, followUpFromWindow: input.followUpFromWindow },
      {
        replaceSystem: input.replaceSystem,
        deferCompression: true,
        turn: key === undefined ? undefined : { key },
        retryTag: input.retryTag,
      },
    );
    // The turn acts for one user from here on: the named one, else the session's stored owner
    // (whose facts the recall used). The reply's append checks that user's erase tombstone, so an
    // erase that lands while the model answers keeps the reply - and what it recalled - out.
    const owner = input.userId ?? snapshot.meta?.userId;
    const sessionMemory = owner === input.userId ? first : new SessionMemory(deps, { sessionId: input.sessionId, userId: owner });
    const anchor = [...messages].reverse().find((m) => m.role === "user")?.id;
    const memory: TurnMemory = {
      sessionId: input.sessionId,
      recalled: context.facts.map((r) => ({ id: r.fact.id, text: r.fact.text, type: r.fact.type, score: round(r.score) })),
      summaryVersion: context.summary?.version ?? null,
      contextTokens: context.tokens,
      compressionDue: add.compressionDue,
      ...(context.degraded.length > 0 ? { degraded: context.degraded } : {}),
    };
    const request: PassThroughRequest = { fields: input.fields, messages: context.messages };
    const replyId = await replyIdFor(anchor ?? deps.newId());
    const trace = deps.trace ?? NO_TRACE;
    return new ChatTurn({
      sessionMemory,
      chat,
      request,
      key,
      replyId,
      replayed: add.outcome ?? null,
      memory,
      startedAt,
      trace,
      now: deps.now,
    });
  }

  /** The model's answer (or, on a retry, the recorded one), stored as the session's next message. */
  async complete(): Promise<TurnAnswer> {
    if (this.replayed) return { reply: this.replayed, body: null, usage: null, replayed: true, memory: this.memory };
    const answer = await timed(this.#s.trace, "llm", this.#s.now, this.#s.chat.completeRaw(this.#s.request));
    const { outcome, replayed } = await this.#storeReply(answer.reply);
    return { reply: outcome, body: replayed ? null : answer.body, usage: answer.reply.usage, replayed, memory: this.memory };
  }

  /**
   * Streams the model's chunks through `onChunk` as they come, then stores the reply. Meant to run
   * to the end even when the listener is gone, so the full reply is stored whatever happens to the
   * client. A retry streams nothing and resolves with the recorded reply.
   */
  async stream(onChunk: (chunk: PassThroughChunk) => void): Promise<{ reply: TurnOutcome; replayed: boolean; memory: TurnMemory }> {
    if (this.replayed) return { reply: this.replayed, replayed: true, memory: this.memory };
    const stream = this.#s.chat.streamRaw(this.#s.request);
    for await (const chunk of stream) onChunk(chunk);
    const { outcome, replayed } = await this.#storeReply(stream.reply());
    return { reply: outcome, replayed, memory: this.memory };
  }

  /**
   * Stores the reply and records it for the key in the same step. A concurrent call with the same
   * key that recorded first wins: its reply is the turn's, this one is not stored.
   */
  async #storeReply(reply: ModelReply): Promise<{ outcome: TurnOutcome; replayed: boolean }> {
    const calls = reply.tool_calls && reply.tool_calls.length > 0 ? reply.tool_calls : undefined;
    const id = calls ? await toolCallMessageId(calls) : this.#s.replyId;
    const toolCalls = calls ? { tool_calls: calls } : {};
    const outcome: TurnOutcome = { id, content: reply.content, ...toolCalls, finishReason: reply.finishReason, model: reply.model };
    const message: IncomingMessage = { id, role: "assistant", content: reply.content, ...toolCalls };
    const turn = this.#s.key === undefined ? undefined : { key: this.#s.key, outcome };
    // An erase of the user while the model answered wins: the reply is not stored.
    const result = await this.#s.sessionMemory.add([message], {
      recalled: this.memory.recalled.map((r) => r.id),
      turn,
      unlessErasedSince: this.#s.startedAt,
      source: "model",
    });
    this.memory = { ...this.memory, compressionDue: result.compressionDue };
    const recorded = result.outcome ?? outcome;
    return { outcome: recorded, replayed: recorded.id !== outcome.id || recorded.content !== outcome.content };
  }
}
