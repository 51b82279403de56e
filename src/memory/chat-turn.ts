import type { MemoryDeps } from "./deps.ts";
import { LlmError, UpstreamUnavailable } from "./errors.ts";
import { sha256Hex } from "./hash.ts";
import { ID_MAX_LENGTH } from "./ids.ts";
import { MemoryManager, type ContextResult } from "./manager.ts";
import type { ChatModel, ChatRequest, ChatUsage } from "./ports.ts";
import type { IncomingMessage } from "./types.ts";

export interface TurnInput {
  sessionId: string;
  userId: string | undefined;
  /** Messages to store before the model call: the user's message, and a system prompt to pin. */
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
export interface TurnMemory {
  sessionId: string;
  recalled: { id: string; text: string; type: string; score: number }[];
  summaryVersion: number | null;
  contextTokens: ContextResult["tokens"];
  compressionDue: boolean;
  degraded?: string[] | undefined;
}

export interface TurnAnswer {
  content: string;
  model: string;
  usage: ChatUsage | null;
  memory: TurnMemory;
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

/**
 * One chat turn: store the user's message and read the context in one Redis round trip (recall in
 * parallel), call the model, store the reply, then compress in the background when due. A retried
 * turn whose reply is already stored answers with it and never calls the model again.
 */
export class ChatTurn {
  readonly #manager: MemoryManager;
  readonly #chat: ChatModel;
  readonly #input: TurnInput;
  readonly #request: ChatRequest;
  /** The reply a retried turn already got. */
  readonly storedReply: string | null;
  memory: TurnMemory;

  private constructor(manager: MemoryManager, chat: ChatModel, input: TurnInput, request: ChatRequest, stored: string | null, memory: TurnMemory) {
    this.#manager = manager;
    this.#chat = chat;
    this.#input = input;
    this.#request = request;
    this.storedReply = stored;
    this.memory = memory;
  }

  static async start(deps: MemoryDeps, input: TurnInput): Promise<ChatTurn> {
    const chat = deps.chat;
    if (!chat) throw new UpstreamUnavailable("llm", "no LLM is configured: set OPENAI_API_KEY or OPENAI_BASE_URL", { reason: "not_configured" });
    const manager = new MemoryManager(deps, { sessionId: input.sessionId, userId: input.userId });
    const { add, context, snapshot } = await manager.addWithContext(
      input.messages,
      { query: input.query, countRecalls: false },
      { replaceSystem: input.replaceSystem, deferCompression: true },
    );
    const stored = snapshot.window.find((m) => m.id === input.replyId)?.content ?? null;
    const memory: TurnMemory = {
      sessionId: input.sessionId,
      recalled: context.facts.map((r) => ({ id: r.fact.id, text: r.fact.text, type: r.fact.type, score: round(r.score) })),
      summaryVersion: context.summary?.version ?? null,
      contextTokens: context.tokens,
      compressionDue: add.compressionDue,
      ...(context.degraded.length > 0 ? { degraded: context.degraded } : {}),
    };
    const request: ChatRequest = { messages: context.messages, model: input.model, temperature: input.temperature, maxTokens: input.maxTokens };
    return new ChatTurn(manager, chat, input, request, stored, memory);
  }

  /** The model's answer (or the stored one on a retry), stored as the session's next message. */
  async complete(defaultModel: string): Promise<TurnAnswer> {
    if (this.storedReply !== null) return { content: this.storedReply, model: this.#request.model ?? defaultModel, usage: null, memory: this.memory };
    const answer = await this.#chat.complete(this.#request);
    if (answer.content.trim() === "") throw new LlmError("bad_output", "empty reply");
    return { ...answer, memory: await this.#storeReply(answer.content) };
  }

  /**
   * Streams the answer through `onDelta`, then stores it. Meant to run to the end even when the
   * listener is gone, so the full reply is stored whatever happens to the client.
   */
  async stream(onDelta: (delta: string) => void): Promise<{ content: string; memory: TurnMemory }> {
    if (this.storedReply !== null) {
      onDelta(this.storedReply);
      return { content: this.storedReply, memory: this.memory };
    }
    let content = "";
    for await (const delta of this.#chat.stream(this.#request)) {
      content += delta;
      onDelta(delta);
    }
    if (content.trim() === "") throw new LlmError("bad_output", "empty reply");
    return { content, memory: await this.#storeReply(content) };
  }

  /** Stores the reply (idempotent on its id); compression is scheduled when the turn made it due. */
  async #storeReply(content: string): Promise<TurnMemory> {
    const reply: IncomingMessage = { id: this.#input.replyId, role: "assistant", content };
    const result = await this.#manager.add([reply], { recalled: this.memory.recalled.map((r) => r.id) });
    this.memory = { ...this.memory, compressionDue: result.compressionDue };
    return this.memory;
  }
}
