/** @module Streams a chat turn as server-sent events; the turn runs on in the background so the reply is stored on disconnect. */
import type { Context } from "hono";
import type { ChatTurn, TurnMemory } from "../memory/sessions/index.ts";
import { LlmError } from "../memory/errors.ts";
import type { PassThroughChunk } from "../memory/ports/index.ts";
import type { TurnOutcome } from "../memory/model.ts";
import type { AppEnv } from "./context-types.ts";
import type { ApiError } from "./errors.ts";
import { toApiError } from "./on-error.ts";

/** How one streaming protocol renders the events of a turn. */
export interface StreamFormat {
  /** One chunk of the model as it arrived ("" to send nothing for it). */
  chunk(chunk: PassThroughChunk): string;
  /** A retried turn: the recorded reply, rendered as the stream that first delivered it. */
  replay(reply: TurnOutcome): string;
  /** The end, with the reply as stored. */
  done(result: { reply: TurnOutcome; memory: TurnMemory }): string;
  error(err: ApiError): string;
}

/**
 * Streams a turn's answer as server-sent events. The turn runs in the background and never waits
 * for the client, so the full reply is stored even when the client disconnects mid-stream.
 */
export function streamTurn(c: Context<AppEnv>, turn: ChatTurn, format: StreamFormat): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let clientGone = false;
  const send = (text: string): void => {
    if (clientGone || text === "") return;
    writer.write(encoder.encode(text)).catch(() => {
      clientGone = true;
    });
  };
  if (turn.replayed) send(format.replay(turn.replayed));
  const pump = turn
    .stream((chunk) => send(format.chunk(chunk)))
    .then(
      (result) => send(format.done(result)),
      (err: unknown) => {
        if (!(err instanceof LlmError)) {
          c.get("runtime").logger.error("streamed turn failed", { session: turn.memory.sessionId, error: String(err) });
        }
        send(format.error(toApiError(err)));
      },
    )
    .finally(() => writer.close().catch(() => undefined));
  c.get("runtime").background(pump);
  const headers = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };
  return new Response(readable, { headers: { ...headers, ...turnHeaders(turn.memory, turn.replayed !== null) } });
}

/** Response headers describing what memory injected, and whether the answer came from storage. */
export function turnHeaders(memory: TurnMemory, replayed: boolean): Record<string, string> {
  return {
    "x-memory-session": memory.sessionId,
    "x-memory-recalled": memory.recalled.map((r) => `${r.id};score=${r.score}`).join(", "),
    "x-memory-summary-version": memory.summaryVersion === null ? "none" : String(memory.summaryVersion),
    "x-memory-context-tokens": String(memory.contextTokens.total),
    ...(replayed ? { "idempotent-replayed": "true" } : {}),
  };
}
