/** @module The ?trace=true flag: starts a request's trace and returns it inline, without fact texts for tokens lacking read scope. */
import type { Context } from "hono";
import type { Trace, TraceKind } from "../memory/observe/index.ts";
import type { AppEnv } from "./context-types.ts";
import { QueryBool } from "./schemas/common.ts";

/** `?trace=true` returns the turn's trace in the response body. */
export const TraceFlag = QueryBool.optional().openapi({ description: "`true` returns the turn's trace inline (`trace` field)" });

/** Starts the request's trace (its id goes out as `X-Memory-Trace-Id`). */
export function beginTrace(
  c: Context<AppEnv>,
  kind: TraceKind,
  session: { sessionId: string; userId?: string | undefined },
  inline: boolean,
): void {
  c.get("runtime").observe.beginTrace(kind, session, inline);
}

/**
 * `{ trace }` when the client asked for the trace inline, else nothing. A token without the `read`
 * scope (a chat-only browser token, refused `GET .../facts`) gets it without the candidates' fact
 * texts: only ids, scores and verdicts.
 */
export function inlineTrace(c: Context<AppEnv>): { trace?: Trace } {
  const trace = c.get("runtime").observe.inlineTrace();
  if (!trace) return {};
  const principal = c.get("principal");
  if (principal.kind !== "token" || principal.scopes.includes("read") || !trace.recall) return { trace };
  return {
    trace: { ...trace, recall: { ...trace.recall, candidates: trace.recall.candidates.map((candidate) => ({ ...candidate, text: "" })) } },
  };
}
