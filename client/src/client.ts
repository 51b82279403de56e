/** @module The MemoryClient class: the typed API client plus methods for the common flows (append, context, chat, facts). */
import createClient, { type Client } from "openapi-fetch";
import { toQuery, unwrap } from "./call.ts";
import { streamChat, type ChatStreamEvent } from "./chat-stream.ts";
import { MemoryApiError } from "./errors.ts";
import { FactsClient } from "./facts.ts";
import type { paths } from "./schema.ts";
import type { AppendResult, ChatRequest, ChatResult, ContextResult, MessageInput, QueryInput, QueryParams } from "./types.ts";

export interface MemoryClientOptions {
  /** Where the service answers, e.g. `http://127.0.0.1:8787` (`npm run dev`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`: a tenant key (`dev-key` on the dev stack). */
  apiKey?: string | undefined;
  /** Headers for every request. @default {} */
  headers?: Record<string, string> | undefined;
  /** The fetch to use (a test double, a proxy-aware fetch...). @default globalThis.fetch */
  fetch?: ((input: Request) => Promise<Response>) | undefined;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the request (and a stream being read). */
  signal?: AbortSignal | undefined;
}

/**
 * The Agent Memory API for browsers and Node 20+ (fetch only). `api` is the generated client for
 * every route; the methods cover the common flows and throw {@link MemoryApiError} on an error answer.
 */
export class MemoryClient {
  /** Typed calls of every route: `api.GET("/v1/sessions/{sessionId}", { params: { path: { sessionId } } })`. */
  readonly api: Client<paths>;

  constructor(options: MemoryClientOptions) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
    this.api = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), headers, fetch: options.fetch });
  }

  /** Appends messages to a session (idempotent with message ids); `userId` names the session's user. */
  append(sessionId: string, messages: MessageInput[], options: { userId?: string } & CallOptions = {}): Promise<AppendResult> {
    const { userId, signal } = options;
    return unwrap(
      this.api.POST("/v1/sessions/{sessionId}/messages", { params: { path: { sessionId } }, body: { messages, userId }, signal }),
    );
  }

  /** The context to send to an LLM: system, summary, facts recalled for `query`, window, within `budget` tokens. */
  context(sessionId: string, query: QueryInput<QueryParams<"getContext">> = {}, options: CallOptions = {}): Promise<ContextResult> {
    const params = { path: { sessionId }, query: toQuery<QueryParams<"getContext">>(query) };
    return unwrap(this.api.GET("/v1/sessions/{sessionId}/context", { params, signal: options.signal }));
  }

  /** One chat turn, answered when the reply is complete and stored. */
  async chat(sessionId: string, request: ChatRequest, options: CallOptions = {}): Promise<ChatResult> {
    const body = { ...request, stream: false };
    const answer = await unwrap(
      this.api.POST("/v1/sessions/{sessionId}/chat", { params: { path: { sessionId } }, body, signal: options.signal }),
    );
    // The route also answers text/event-stream, but only when asked for a stream.
    if (typeof answer === "string")
      throw new MemoryApiError(
        200,
        "unexpected_stream",
        "asked for one JSON answer, the service sent an event stream",
        undefined,
        undefined,
      );
    return answer;
  }

  /** One chat turn, streamed: `delta` events as the reply arrives, then one `done` with the stored reply and what memory injected. */
  chatStream(sessionId: string, request: ChatRequest, options: CallOptions = {}): AsyncGenerator<ChatStreamEvent> {
    return streamChat(this.api, sessionId, request, options.signal);
  }

  /** A user's long-term facts. */
  facts(userId: string): FactsClient {
    return new FactsClient(this.api, userId);
  }
}

/** Shorthand for `new MemoryClient(options)`. */
export const createMemoryClient = (options: MemoryClientOptions): MemoryClient => new MemoryClient(options);
