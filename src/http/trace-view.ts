import type { Context } from "hono";
import type { Trace, TraceKind } from "../memory/trace.ts";
import type { AppEnv } from "./env.ts";
import { QueryBool } from "./schemas/common.ts";

/** `?trace=true` returns the turn's trace in the response body. */
export const TraceFlag = QueryBool.optional().openapi({ description: "`true` returns the turn's trace inline (`trace` field)" });

/** Starts the request's trace (its id goes out as `X-Memory-Trace-Id`). */
export function beginTrace(c: Context<AppEnv>, kind: TraceKind, session: { sessionId: string; userId?: string | undefined }, inline: boolean): void {
  c.get("runtime").observe.beginTrace(kind, session, inline);
}

/** `{ trace }` when the client asked for the trace inline, else nothing. */
export function inlineTrace(c: Context<AppEnv>): { trace?: Trace } {
  const trace = c.get("runtime").observe.inlineTrace();
  return trace ? { trace } : {};
}
