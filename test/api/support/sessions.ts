import { expect } from "vitest";
import { call, type CallResult } from "./helpers.ts";

/** Shapes of the session API's responses, as far as these tests read them. */

export type Role = "system" | "user" | "assistant" | "tool";

export interface ToolCallInput {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface MessageInput {
  id?: string;
  role: Role;
  content: string;
  name?: string;
  tool_calls?: ToolCallInput[];
  tool_call_id?: string;
  importance?: number;
  persist?: boolean;
}

export interface StoredMessageView {
  id: string;
  role: Role;
  content: string;
  tokens: number;
  importance: number;
  ts: number;
  tool_calls?: ToolCallInput[];
  tool_call_id?: string;
}

export interface ChatMessageView {
  role: Role;
  content: string;
  tool_calls?: ToolCallInput[];
  tool_call_id?: string;
}

export interface Stats {
  messages: number;
  tokens: number;
  windowMessages: number;
  windowTokens: number;
  maxTokens: number;
  utilization: number;
  avgImportance: number;
}

export interface SessionState {
  sessionId: string;
  exists: boolean;
  userId: string | null;
  settings: { window: number; maxTokens: number; keep: number; ttlSeconds: number; overrides: Record<string, number> };
  stats: Stats;
  summary: unknown;
  system: StoredMessageView[];
  window: StoredMessageView[];
}

export interface Added {
  id: string;
  tokens: number;
  duplicate: boolean;
}

export interface AppendResponse {
  sessionId: string;
  added: Added[];
  stats: Stats;
  compressionDue: boolean;
  facts: string[];
}

export interface ContextResponse {
  sessionId: string;
  messages: ChatMessageView[];
  tokens: { system: number; summary: number; facts: number; window: number; total: number };
  budget: { total: number; reserve: number; available: number; windowAllowance: number; used: number; overBudget: boolean };
  omitted: { window: number; facts: number; summary: boolean };
  summary: unknown;
  stats: Stats;
}

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export const sessionPath = (sessionId: string): string => `/v1/sessions/${sessionId}`;

interface As {
  key?: string;
  env?: Partial<Record<string, string | undefined>>;
}

export function postMessages(sessionId: string, messages: MessageInput[], options: As & { userId?: string } = {}) {
  const body = options.userId === undefined ? { messages } : { messages, userId: options.userId };
  return call<AppendResponse>("POST", `${sessionPath(sessionId)}/messages`, { body, key: options.key, env: options.env });
}

/** Appends and expects 201. */
export async function append(sessionId: string, messages: MessageInput[], options: As & { userId?: string } = {}): Promise<AppendResponse> {
  const res = await postMessages(sessionId, messages, options);
  expect(res.status, res.text).toBe(201);
  return res.json;
}

export async function readSession(sessionId: string, options: As = {}): Promise<SessionState> {
  const res = await call<SessionState>("GET", sessionPath(sessionId), options);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

export async function readContext(sessionId: string, query = "", options: As = {}): Promise<ContextResponse> {
  const res = await call<ContextResponse>("GET", `${sessionPath(sessionId)}/context${query === "" ? "" : `?${query}`}`, options);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

export async function putSettings(sessionId: string, settings: Record<string, number | null>, options: As = {}): Promise<SessionState> {
  const res = await call<SessionState>("PUT", sessionPath(sessionId), { body: settings, ...options });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** Asserts a JSON error body `{"error": {"code", "message"}}` with a 4xx status (or `status` exactly). */
export function expectJsonError(res: CallResult<unknown>, status?: number): ErrorBody {
  if (status === undefined) {
    expect(res.status, res.text).toBeGreaterThanOrEqual(400);
    expect(res.status, res.text).toBeLessThan(500);
  } else {
    expect(res.status, res.text).toBe(status);
  }
  expect(res.headers.get("content-type") ?? "").toMatch(/application\/json/);
  const body = res.json as ErrorBody;
  expect(body, res.text).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  expect(body.error.code.length).toBeGreaterThan(0);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

/** The parts of a session that must not change when a request is rejected. */
export async function observable(sessionId: string, key?: string) {
  const s = await readSession(sessionId, { key });
  return { exists: s.exists, userId: s.userId, window: s.window, system: s.system, stats: s.stats, overrides: s.settings.overrides };
}

export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** `count` plain messages alternating user/assistant, with ids `${prefix}-${i}`. */
export function rounds(prefix: string, count: number, from = 0): MessageInput[] {
  return Array.from({ length: count }, (_, j) => {
    const i = from + j;
    return { id: `${prefix}-${i}`, role: i % 2 === 0 ? "user" : "assistant", content: `${prefix} message number ${i}` } as const;
  });
}
