import OpenAI from "openai";
import { KEY_A } from "./helpers.ts";
import { inProcessFetch } from "./chat.ts";

/** The official `openai` client, pointed at the Worker (served in-process) as the service's own API. */
export function memoryClient(
  sessionId: string | null,
  userId: string | null,
  options: { key?: string; env?: Partial<Record<string, string | undefined>>; maxRetries?: number } = {},
) {
  const routed = inProcessFetch(options.env);
  // null leaves the header out (the request's `user` field names the user, or the session)
  const headers: Record<string, string> = {};
  if (sessionId !== null) headers["X-Memory-Session"] = sessionId;
  if (userId !== null) headers["X-Memory-User"] = userId;
  const openai = new OpenAI({
    baseURL: "http://agent-memory.test/v1",
    apiKey: options.key ?? KEY_A,
    organization: null,
    project: null,
    maxRetries: options.maxRetries ?? 0,
    fetch: routed.fetch,
    defaultHeaders: headers,
  });
  return { openai, drain: routed.drain, served: routed.served };
}

/** A stored or sent message as [role, content, tool call names or call id] for comparisons. */
export function shape(m: {
  role: string;
  content?: unknown;
  tool_calls?: { function: { name: string } }[];
  tool_call_id?: string;
}): unknown[] {
  const text = typeof m.content === "string" ? m.content : m.content === null || m.content === undefined ? "" : JSON.stringify(m.content);
  if (m.tool_calls) return [m.role, text, m.tool_calls.map((c) => c.function.name)];
  if (m.tool_call_id) return [m.role, text, m.tool_call_id];
  return [m.role, text];
}
