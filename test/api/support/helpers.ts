import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../src/index.ts";
import type { Bindings } from "../../../src/worker/env.ts";

export const KEY_A = "acme-key";
export const KEY_B = "globex-key";

const bindings = env as unknown as Bindings & { CONTROL_REDIS_URL: string; CONTROL_VECTOR_URL: string; OPENAI_BASE_URL: string };

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON cases). */
  raw?: string;
  key?: string | null;
  headers?: Record<string, string>;
  /** Binding overrides for this call; `undefined` removes a binding. */
  env?: Partial<Record<string, string | undefined>>;
  /** Wait for waitUntil work before returning. Default true. */
  drain?: boolean;
}

export interface CallResult<T> {
  status: number;
  headers: Headers;
  json: T;
  text: string;
  /** Resolves when the request's waitUntil work has finished. */
  drained: Promise<void>;
}

/** Calls the Worker in-process with a fresh execution context. */
export async function call<T = Record<string, unknown>>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers = new Headers(options.headers);
  const key = options.key === undefined ? KEY_A : options.key;
  if (key !== null) headers.set("authorization", `Bearer ${key}`);
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  const request = new Request(`http://agent-memory.test${path}`, { method, headers, body });
  const ctx = createExecutionContext();
  const callEnv = { ...bindings } as Record<string, unknown>;
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete callEnv[name];
    else callEnv[name] = value;
  }
  const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, callEnv as unknown as Bindings, ctx);
  const text = await response.text();
  const drained = waitOnExecutionContext(ctx);
  if (options.drain !== false) await drained;
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, json: json as T, text, drained };
}

async function control(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${base}/__control${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

export type Upstream = "redis" | "vector";

const controlBase = (which: Upstream): string => (which === "redis" ? bindings.CONTROL_REDIS_URL : bindings.CONTROL_VECTOR_URL);

/** Keys of traces and metrics (`am:{t}:obs:...`), written in waitUntil after the response. */
export const TELEMETRY_KEY = /"am:[^":]+:obs:/;

/**
 * Requests an emulator served since the last `clearLog`. The background trace and metrics writes
 * (never on the response path) are left out unless `telemetry` is true.
 */
export async function upstreamLog(
  which: Upstream,
  options: { telemetry?: boolean } = {},
): Promise<{ method: string; path: string; body: string }[]> {
  const log = (await control(controlBase(which), "GET", "/log")) as { requests: { method: string; path: string; body: string }[] };
  return options.telemetry ? log.requests : log.requests.filter((r) => !TELEMETRY_KEY.test(r.body));
}

export async function clearLog(which: Upstream): Promise<void> {
  await control(controlBase(which), "DELETE", "/log");
}

export async function injectFault(
  which: Upstream,
  fault: { mode: "error" | "drop" | "hang"; durationMs?: number; count?: number },
): Promise<void> {
  await control(controlBase(which), "POST", "/fault", fault);
}

export async function clearFault(which: Upstream): Promise<void> {
  await control(controlBase(which), "DELETE", "/fault");
}

/** A fresh id per test so tests sharing upstash-local never see each other's data. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 12)}`;
}

export const llmBaseUrl = (): string => bindings.OPENAI_BASE_URL;
