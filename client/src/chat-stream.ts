/** @module Reads a streamed chat turn's server-sent events (delta, done, error) into typed events for the client. */
import type { Client } from "openapi-fetch";
import { MemoryApiError, isErrorBody } from "./errors.ts";
import type { paths } from "./schema.ts";
import { readServerSentEvents } from "./sse.ts";
import type { ChatReply, ChatRequest, TurnMemory } from "./types.ts";

export type ChatStreamEvent = { type: "delta"; content: string } | { type: "done"; reply: ChatReply; memory: TurnMemory };

const parse = (data: string): unknown => {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    throw new MemoryApiError(
      200,
      "stream_invalid",
      `the chat stream sent an event that is not JSON: ${data.slice(0, 120)}`,
      undefined,
      undefined,
    );
  }
};

/**
 * `POST /v1/sessions/{sessionId}/chat` with `stream: true`: reads `event: delta` ({content}),
 * `event: done` ({reply, memory}) and `event: error` ({error}) and turns them into events, or
 * throws. A stream that ends without `done` is an error: the reply was not confirmed stored.
 */
export async function* streamChat(
  api: Client<paths>,
  sessionId: string,
  request: ChatRequest,
  signal?: AbortSignal,
): AsyncGenerator<ChatStreamEvent> {
  const { data, error, response } = await api.POST("/v1/sessions/{sessionId}/chat", {
    params: { path: { sessionId } },
    body: { ...request, stream: true },
    parseAs: "stream",
    signal,
  });
  if (!response.ok || data === undefined || data === null) throw MemoryApiError.from(response, error);
  for await (const { event, data: text } of readServerSentEvents(data, signal)) {
    if (event === "delta") {
      const { content } = parse(text) as { content?: unknown };
      if (typeof content === "string") yield { type: "delta", content };
    } else if (event === "done") {
      const done = parse(text) as { reply: ChatReply; memory: TurnMemory };
      yield { type: "done", reply: done.reply, memory: done.memory };
      return;
    } else if (event === "error") {
      const body = parse(text);
      throw isErrorBody(body)
        ? new MemoryApiError(response.status, body.error.code, body.error.message, body.error.details, undefined)
        : new MemoryApiError(response.status, "stream_error", text.slice(0, 200), undefined, undefined);
    }
  }
  throw new MemoryApiError(response.status, "stream_incomplete", "the chat stream ended before its done event", undefined, undefined);
}
