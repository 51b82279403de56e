import type { Context } from "hono";
import type { ChatTurn, TurnMemory } from "../memory/chat-turn.ts";
import { LlmError } from "../memory/errors.ts";
import type { AppEnv } from "./env.ts";
import type { ApiError } from "./errors.ts";
import { toApiError } from "./on-error.ts";

/** How one streaming protocol renders its events. */
export interface StreamFormat {
  delta(content: string): string;
  done(content: string, memory: TurnMemory): string;
  error(err: ApiError): string;
}

/**
 * Streams a turn's answer as server-sent events. The turn runs in the background and never waits
 * for the client, so the full reply is stored even when the client disconnects mid-stream.
 */
export function streamTurn(c: Context<AppEnv>, turn: ChatTurn, format: StreamFormat, headers: Record<string, string>): Response {
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
  const pump = turn
    .stream((delta) => send(format.delta(delta)))
    .then(
      ({ content, memory }) => send(format.done(content, memory)),
      (err: unknown) => {
        if (!(err instanceof LlmError)) console.error(JSON.stringify({ level: "error", msg: "streamed turn failed", session: turn.memory.sessionId, error: String(err) }));
        send(format.error(toApiError(err)));
      },
    )
    .finally(() => writer.close().catch(() => undefined));
  c.get("runtime").background(pump);
  return new Response(readable, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", ...headers } });
}

/** Response headers describing what memory injected (for frontends and debugging). */
export function memoryHeaders(memory: TurnMemory): Record<string, string> {
  return {
    "x-memory-session": memory.sessionId,
    "x-memory-recalled": memory.recalled.map((r) => `${r.id};score=${r.score}`).join(", "),
    "x-memory-summary-version": memory.summaryVersion === null ? "none" : String(memory.summaryVersion),
    "x-memory-context-tokens": String(memory.contextTokens.total),
  };
}
