import { expect } from "vitest";
import { call, llmBaseUrl } from "./helpers.ts";
import { sessionPath, type StoredMessageView } from "./sessions.ts";

/**
 * Drives the fake OpenAI-compatible server (test/support/fake-openai.ts) from worker tests, and
 * reads the compression API (compress, history) in the shapes these tests use.
 */

export type FakeMode = "echo" | "summary" | "fixed" | "error" | "timeout" | "empty" | "garbage" | "tools";

export interface FakeModeOptions {
  mode: FakeMode;
  delayMs?: number;
  status?: number;
  text?: string;
  count?: number;
  /** Gap between streamed chunks, ms. */
  chunkDelayMs?: number;
  /** Calls of `tools` mode (default one get_weather call). */
  toolCalls?: { name: string; arguments: string }[];
}

export interface LlmMessage {
  role: string;
  content: unknown;
}

export interface LlmRequest {
  method: string;
  path: string;
  body: { messages?: LlmMessage[]; stream?: boolean; [key: string]: unknown };
}

/** The control API lives at the server's origin; the Worker's base URL ends in `/v1`. */
const controlUrl = (path: string): string => `${llmBaseUrl().replace(/\/v1\/?$/, "")}/__control${path}`;

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(controlUrl(path), {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`fake LLM control ${method} ${path} failed: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export async function setLlmMode(options: FakeModeOptions): Promise<void> {
  await control("POST", "/mode", options);
}

/** One scripted answer of the fake LLM: a completion with `text`, or an error with `status` and `message`. */
export interface ScriptedAnswer {
  text?: string;
  status?: number;
  message?: string;
}

/** Chat requests whose prompt contains `match` get `answers` in order, before the mode applies (`[]` clears). */
export async function scriptLlm(match: string, answers: ScriptedAnswer[]): Promise<void> {
  await control("POST", "/script", { match, answers });
}

/** Mode back to `echo` without delay, request log cleared. */
export async function resetLlm(): Promise<void> {
  await control("POST", "/reset");
}

/** Chat-completion requests the fake server received since the last clear. */
export async function chatRequests(): Promise<LlmRequest[]> {
  const all = (await control("GET", "/requests")) as LlmRequest[];
  return all.filter((r) => r.path === "/chat/completions");
}

export async function clearLlmRequests(): Promise<void> {
  await control("DELETE", "/requests");
}

/** Waits until the fake server has received at least `count` chat requests. */
export async function waitForChatRequests(count: number, timeoutMs = 5000): Promise<LlmRequest[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const requests = await chatRequests();
    if (requests.length >= count) return requests;
    if (Date.now() > until) throw new Error(`the fake LLM received ${requests.length} chat requests, expected ${count}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every text a chat request carried (system and user prompt parts), joined. */
export function promptText(request: LlmRequest): string {
  return (request.body.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n");
}

export interface SummaryView {
  text: string;
  tokens: number;
  version: number;
  covered: number;
  method: "llm" | "extractive";
  updatedAt: number;
  lastRatio: number;
}

export interface CompressResponse {
  sessionId: string;
  compressed: boolean;
  reason: string;
  removed?: number;
  removedTokens?: number;
  summaryTokens?: number;
  ratio?: number;
  version?: number;
  method?: string;
  error?: string;
}

export interface HistoryResponse {
  sessionId: string;
  summary: SummaryView | null;
  archived: StoredMessageView[];
  total: number;
}

type Env = Partial<Record<string, string | undefined>>;

/** `POST .../compress` (optionally forced); expects 200. */
export async function compress(sessionId: string, options: { force?: boolean; env?: Env } = {}): Promise<CompressResponse> {
  const res = await startCompress(sessionId, options);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** Starts `POST .../compress` without awaiting it, e.g. to race it. */
export function startCompress(sessionId: string, options: { force?: boolean; env?: Env } = {}) {
  const query = options.force ? "?force=true" : "";
  return call<CompressResponse>("POST", `${sessionPath(sessionId)}/compress${query}`, { env: options.env });
}

export async function readHistory(sessionId: string, options: { env?: Env; limit?: number } = {}): Promise<HistoryResponse> {
  const res = await call<HistoryResponse>("GET", `${sessionPath(sessionId)}/history?limit=${options.limit ?? 1000}`, { env: options.env });
  expect(res.status, res.text).toBe(200);
  return res.json;
}
