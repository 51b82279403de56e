import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import worker from "../../../src/index.ts";
import type { Bindings } from "../../../src/worker/env.ts";
import { call, KEY_A, type CallResult } from "./helpers.ts";
import type { LlmRequest } from "./llm.ts";

/**
 * Helpers of the chat tests: the chat and completions routes, the session views they check, the
 * fake LLM's control API, SSE parsing and a streaming call that can leave mid-stream.
 */

type Env = Partial<Record<string, string | undefined>>;
type Role = "system" | "user" | "assistant" | "tool";

export interface StoredView {
  id: string;
  role: Role;
  content: string;
  tokens: number;
}

export interface SummaryView {
  text: string;
  version: number;
  covered: number;
  method: string;
}

export interface SessionView {
  sessionId: string;
  exists: boolean;
  userId: string | null;
  summary: SummaryView | null;
  system: StoredView[];
  window: StoredView[];
}

export interface HistoryView {
  summary: SummaryView | null;
  archived: StoredView[];
  total: number;
}

export interface MemoryView {
  sessionId: string;
  recalled: { id: string; text: string; type: string; score: number }[];
  summaryVersion: number | null;
  contextTokens: { system: number; summary: number; facts: number; window: number; total: number };
  compressionDue: boolean;
  degraded?: string[];
}

export interface ChatReplyBody {
  reply: { id: string; role: "assistant"; content: string };
  model: string;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number } | null;
  memory: MemoryView;
}

export interface ErrorView {
  error: { code: string; message: string; details?: { kind?: string } };
}

export interface ChatInput {
  message: string;
  messageId?: string;
  userId?: string;
  persist?: boolean;
  stream?: boolean;
  model?: string;
  temperature?: number;
  maxTokens?: number;
}

export const sessionPath = (sessionId: string): string => `/v1/sessions/${sessionId}`;

/** `POST /v1/sessions/{id}/chat`; waits for its background work unless `drain: false`. */
export function postChat<T = ChatReplyBody>(
  sessionId: string,
  body: ChatInput,
  options: { env?: Env; drain?: boolean } = {},
): Promise<CallResult<T>> {
  return call<T>("POST", `${sessionPath(sessionId)}/chat`, { body, env: options.env, drain: options.drain });
}

/** A non-streaming chat turn that must answer 200. */
export async function chatTurn(sessionId: string, body: ChatInput, options: { env?: Env } = {}): Promise<CallResult<ChatReplyBody>> {
  const res = await postChat(sessionId, body, options);
  expect(res.status, res.text).toBe(200);
  return res;
}

export async function readSession(sessionId: string): Promise<SessionView> {
  const res = await call<SessionView>("GET", sessionPath(sessionId));
  expect(res.status, res.text).toBe(200);
  return res.json;
}

export async function readHistory(sessionId: string): Promise<HistoryView> {
  const res = await call<HistoryView>("GET", `${sessionPath(sessionId)}/history?limit=1000`);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** Archived originals, then the window: every non-system message the session still has, oldest first. */
export async function transcript(sessionId: string): Promise<StoredView[]> {
  const [history, session] = await Promise.all([readHistory(sessionId), readSession(sessionId)]);
  return [...history.archived, ...session.window];
}

export async function putSettings(sessionId: string, settings: Record<string, number>): Promise<void> {
  const res = await call("PUT", sessionPath(sessionId), { body: settings });
  expect(res.status, res.text).toBe(200);
}

export async function appendMessages(
  sessionId: string,
  messages: { id?: string; role: Role; content: string }[],
  userId?: string,
): Promise<void> {
  const res = await call("POST", `${sessionPath(sessionId)}/messages`, {
    body: userId === undefined ? { messages } : { messages, userId },
  });
  expect(res.status, res.text).toBe(201);
}

/** Asserts the JSON error shape and returns it. */
export function expectError(res: CallResult<unknown>, status: number, code: string): ErrorView {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type") ?? "").toMatch(/application\/json/);
  const body = res.json as ErrorView;
  expect(body.error.code, res.text).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

// ---- the fake LLM (controlled through support-llm.ts) -------------------------------------

export { chatRequests, resetLlm, setLlmMode, type FakeMode, type FakeModeOptions, type LlmMessage, type LlmRequest } from "./llm.ts";

export const textOf = (content: unknown): string => (typeof content === "string" ? content : JSON.stringify(content));

/** Chat requests whose final message is this user message (summary and extraction requests end otherwise). */
export function turnRequests(requests: readonly LlmRequest[], question: string): LlmRequest[] {
  return requests.filter((r) => {
    const last = r.body.messages?.at(-1);
    return last?.role === "user" && textOf(last.content) === question;
  });
}

// ---- server-sent events and streaming ---------------------------------------------------------

export interface SseEvent {
  event: string;
  data: string;
}

/** Parses an event stream (`event:` / `data:` lines, blank-line separated). */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (block.trim() === "") continue;
    let event = "message";
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    events.push({ event, data: data.join("\n") });
  }
  return events;
}

const bindings = env as unknown as Record<string, unknown>;

function chatRequest(sessionId: string, body: ChatInput): Request {
  return new Request(`http://agent-memory.test${sessionPath(sessionId)}/chat`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The bindings with per-call overrides; `undefined` removes a binding. */
function withOverrides(overrides: Env): Bindings {
  const merged: Record<string, unknown> = { ...bindings };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged as unknown as Bindings;
}

const fetchWorker = (request: Request, ctx: ExecutionContext, overrides: Env = {}): Promise<Response> =>
  Promise.resolve(worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, withOverrides(overrides), ctx));

/** One SSE body chunk and when it arrived (ms since the request started). */
export interface TimedChunk {
  at: number;
  text: string;
}

/** A streaming chat turn read chunk by chunk, with arrival times; then its background work drained. */
export async function streamChatTimed(
  sessionId: string,
  body: ChatInput,
  overrides: Env = {},
): Promise<{ response: Response; chunks: TimedChunk[]; text: string }> {
  const ctx = createExecutionContext();
  const start = Date.now();
  const response = await fetchWorker(chatRequest(sessionId, { ...body, stream: true }), ctx, overrides);
  const chunks: TimedChunk[] = [];
  const decoder = new TextDecoder();
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push({ at: Date.now() - start, text: decoder.decode(value, { stream: true }) });
    }
  }
  await waitOnExecutionContext(ctx);
  return { response, chunks, text: chunks.map((c) => c.text).join("") };
}

/**
 * A client that leaves mid-stream: reads the first body chunk, cancels the reader, then waits
 * for the request's waitUntil work (which must still store the whole reply).
 */
export async function streamChatAndLeave(sessionId: string, body: ChatInput): Promise<{ response: Response; first: string }> {
  const ctx = createExecutionContext();
  const response = await fetchWorker(chatRequest(sessionId, { ...body, stream: true }), ctx);
  if (!response.body) throw new Error("the streaming response has no body");
  const reader = response.body.getReader();
  const { value } = await reader.read();
  await reader.cancel("client went away");
  await waitOnExecutionContext(ctx);
  return { response, first: value ? new TextDecoder().decode(value) : "" };
}

/** A `fetch` for SDK clients that serves each request from the Worker in-process; `drain()` awaits their background work. */
export function inProcessFetch(overrides: Env = {}): { fetch: typeof fetch; drain: () => Promise<void>; served: () => number } {
  const contexts: ExecutionContext[] = [];
  let served = 0;
  const routed = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    served += 1;
    const ctx = createExecutionContext();
    contexts.push(ctx);
    return fetchWorker(request, ctx, overrides);
  };
  return {
    fetch: routed as typeof fetch,
    drain: async () => {
      const pending = contexts.splice(0);
      for (const ctx of pending) await waitOnExecutionContext(ctx);
    },
    served: () => served,
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Sets the fixed delay an emulator adds to every request (0 turns it off). */
export async function setUpstreamDelay(which: "redis" | "vector", ms: number): Promise<void> {
  const base = String(bindings[which === "redis" ? "CONTROL_REDIS_URL" : "CONTROL_VECTOR_URL"]);
  const res = await fetch(`${base}/__control/delay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ms }),
  });
  if (!res.ok) throw new Error(`setting the ${which} delay failed: ${res.status}`);
}

/** Polls until `check` returns a value (not undefined), or throws after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
