/**
 * The Worker with a profiling door, for bench/cpu-profile.ts only (never deployed). workerd's clocks
 * stand still while JavaScript runs, so a phase cannot time itself: instead `POST /__profile/run`
 * repeats one phase N times and the bench reads workerd's CPU from outside, around that request.
 *
 * `POST /__profile/record` runs one real request through the Worker and records every upstream
 * reply it gets (Redis, Vector, the LLM); `run` then replays them, so a phase repeated N times
 * costs no network and touches no data. Everything else is the production code: the same app,
 * runtime, stores, counter and renderer.
 */
import { buildApp } from "../../../src/http/app.ts";
import { entryForKey, keyId } from "../../../src/http/middleware/auth.ts";
import worker from "../../../src/index.ts";
import { assembleContext } from "../../../src/memory/context/assemble.ts";
import type { SessionSnapshot } from "../../../src/memory/model.ts";
import { decodeReply, parseSnapshot, parseTotals } from "../../../src/stores/script-replies.ts";
import { loadConfig, parseConfig } from "../../../src/worker/config/parse.ts";
import { createRuntime } from "../../../src/worker/request-runtime.ts";
import { adaptersFor } from "../../../src/worker/wiring.ts";

import type { ProfiledRequest } from "./specs.ts";
import { type Recorded, upstream } from "./tape.ts";

interface Scenario extends ProfiledRequest {
  name: string;
  tape: Map<string, Recorded>;
  /** The response the recording got (rendered again by the `render` phase). */
  response: string;
}

interface Context {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
}

const scenarios = new Map<string, Scenario>();
const envsSeen = new WeakSet<object>();
let distinctEnvs = 0;

const app = buildApp(createRuntime);

function context(): { ctx: Context; settled: () => Promise<void> } {
  const pending: Promise<unknown>[] = [];
  return {
    ctx: { waitUntil: (p) => void pending.push(p), passThroughOnException: () => {} },
    settled: async () => {
      while (pending.length > 0) await Promise.allSettled(pending.splice(0));
    },
  };
}

async function runRequest(s: Scenario, env: object, waitBackground: boolean): Promise<string> {
  const { ctx, settled } = context();
  const init: RequestInit = { method: s.method, headers: s.headers };
  if (s.body !== undefined) init.body = s.body;
  const res = await worker.fetch(new Request(`http://profile${s.path}`, init), env as never, ctx as never);
  const text = await res.text();
  if (waitBackground) await settled();
  else void settled();
  return text;
}

/** The recorded Redis script replies (deserialized as the client does), each with its SHA-1. */
function scriptReplies(s: Scenario): { sha: string; result: unknown }[] {
  const out: { sha: string; result: unknown }[] = [];
  for (const [key, rec] of s.tape) {
    if (rec.status !== 200 || !/ evalsha /.test(key)) continue;
    const commands = key.slice(key.indexOf(" ") + 1).split(",");
    const body = JSON.parse(rec.body) as { result?: unknown } | { result?: unknown }[];
    const results = Array.isArray(body) ? body : [body];
    commands.forEach((command, i) => {
      const sha = /^evalsha ([0-9a-f]{40})$/.exec(command)?.[1];
      if (!sha) return;
      let result = results[i]?.result;
      if (typeof result === "string") {
        try {
          result = JSON.parse(rec.base64 ? decodeB64(result) : result) as unknown;
        } catch {
          // not JSON (a plain string reply)
        }
      }
      out.push({ sha, result });
    });
  }
  return out;
}

function decodeB64(text: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
  } catch {
    return text;
  }
}

/** The session snapshot inside a recorded script reply (a read's, or an append's `snap`). */
function snapshotOf(result: unknown): SessionSnapshot | null {
  if (typeof result !== "object" || result === null) return null;
  const obj = result as Record<string, unknown>;
  if ("win" in obj && "meta" in obj) return parseSnapshot(obj);
  if (typeof obj.snap === "object" && obj.snap !== null) return parseSnapshot(obj.snap);
  return null;
}

type Phase = (s: Scenario, env: object, n: number) => Promise<void>;

/** A route's request schemas as the app registered them (what its validator runs). */
function routeSchemas(s: Scenario): { params?: Zod; query?: Zod; headers?: Zod; json?: Zod } {
  const path = s.path.split("?")[0] ?? "";
  for (const def of app.openAPIRegistry.definitions) {
    if (def.type !== "route") continue;
    const route = def.route;
    if (route.method.toUpperCase() !== s.method) continue;
    const pattern = new RegExp(`^${route.path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    if (!pattern.test(path)) continue;
    const request = route.request as
      | { params?: Zod; query?: Zod; headers?: Zod; body?: { content?: Record<string, { schema?: Zod }> } }
      | undefined;
    const json = request?.body?.content?.["application/json"]?.schema;
    return {
      ...(request?.params ? { params: request.params } : {}),
      ...(request?.query ? { query: request.query } : {}),
      ...(request?.headers ? { headers: request.headers } : {}),
      ...(json ? { json } : {}),
    };
  }
  return {};
}

interface Zod {
  safeParseAsync(value: unknown): Promise<{ success: boolean }>;
}

const PHASES: Record<string, Phase> = {
  noop: async () => {},
  /** The request and the work it leaves to `waitUntil` (traces, metrics, fact delivery). */
  "request+background": async (s, env, n) => {
    for (let i = 0; i < n; i++) await runRequest(s, env, true);
  },
  /** The request up to its LLM call, which then fails at once (the error answer is counted too). */
  "until LLM": async (s, env, n) => {
    upstream.failLlm = true;
    try {
      for (let i = 0; i < n; i++) await runRequest(s, env, true);
    } finally {
      upstream.failLlm = false;
    }
  },
  routing: async (s, _env, n) => {
    const path = s.path.split("?")[0] ?? "";
    for (let i = 0; i < n; i++) app.router.match(s.method, path);
  },
  config: async (_s, env, n) => {
    for (let i = 0; i < n; i++) loadConfig(env);
  },
  /** What the configuration would cost if it were parsed on every request. */
  "config (unparsed)": async (_s, env, n) => {
    for (let i = 0; i < n; i++) parseConfig(env as Record<string, unknown>);
  },
  auth: async (s, env, n) => {
    const config = loadConfig(env);
    const header = s.headers.authorization ?? "";
    for (let i = 0; i < n; i++) {
      const presented = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? "";
      entryForKey(config.apiKeys, presented);
      await keyId(presented);
    }
  },
  runtime: async (_s, env, n) => {
    const { ctx } = context();
    for (let i = 0; i < n; i++)
      createRuntime(env, ctx, { requestId: "r", session: "s" }).memory("bench", { kind: "key", id: "k_000000000000" });
  },
  validation: async (s, _env, n) => {
    const schemas = routeSchemas(s);
    const url = new URL(`http://profile${s.path}`);
    const query = Object.fromEntries(url.searchParams);
    const sessionId = /\/sessions\/([^/]+)/.exec(url.pathname)?.[1];
    const headers = Object.fromEntries(Object.entries(s.headers).map(([k, v]) => [k.toLowerCase(), v]));
    for (let i = 0; i < n; i++) {
      if (schemas.params) await schemas.params.safeParseAsync({ sessionId });
      if (schemas.query) await schemas.query.safeParseAsync(query);
      if (schemas.headers) await schemas.headers.safeParseAsync(headers);
      if (schemas.json && s.body !== undefined) await schemas.json.safeParseAsync(JSON.parse(s.body));
    }
  },
  "token counting": async (s, env, n) => {
    const counter = await adaptersFor(loadConfig(env)).counter();
    for (let i = 0; i < n; i++) for (const text of s.texts) counter.count(text);
  },
  /** The official client's decoding (JSON, base64) of the recorded script replies, from a replayed fetch. */
  "redis client": async (s, env, n) => {
    const redis = adaptersFor(loadConfig(env)).redis;
    if (!redis) return;
    const replies = scriptReplies(s);
    for (let i = 0; i < n; i++) for (const { sha } of replies) await redis.evalsha(sha, [], []);
  },
  /** The stores' parsing of the recorded script replies into sessions and messages. */
  "reply parsing": async (s, _env, n) => {
    const replies = scriptReplies(s).map((r) => r.result);
    for (let i = 0; i < n; i++) {
      for (const result of replies) {
        if (typeof result !== "object" || result === null) continue;
        const obj = decodeReply(result, "profile");
        if ("snap" in obj || "wcount" in obj) parseTotals(obj);
        snapshotOf(obj);
      }
    }
  },
  "context assembly": async (s, env, n) => {
    const config = loadConfig(env);
    const counter = await adaptersFor(config).counter();
    const snapshots = scriptReplies(s).flatMap((r) => snapshotOf(r.result) ?? []);
    for (let i = 0; i < n; i++) {
      for (const snap of snapshots)
        assembleContext({ system: snap.system, summary: snap.summary, window: snap.window, options: config.memory, counter });
    }
  },
  /** Serialising the response the recording got (what `c.json` does with it). */
  rendering: async (s, _env, n) => {
    const value = JSON.parse(s.response) as unknown;
    for (let i = 0; i < n; i++) JSON.stringify(value);
  },
  /** Sealing and opening the request's texts (the sealed stores do both; nothing when no keys are set). */
  encryption: async (s, env, n) => {
    const cipher = adaptersFor(loadConfig(env)).cipher;
    if (!cipher.sealing) return;
    const snapshots = scriptReplies(s).flatMap((r) => snapshotOf(r.result) ?? []);
    const stored = snapshots.flatMap((snap) => [...snap.system, ...snap.window].map((m) => m.content));
    for (let i = 0; i < n; i++) {
      for (const text of s.texts) await cipher.seal(text, "bench");
      for (const text of stored) await cipher.open(text, "bench");
    }
  },
};

async function handleProfile(request: Request, env: object): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === "/__profile/record") {
    const spec = (await request.json()) as Omit<Scenario, "tape" | "response">;
    const scenario: Scenario = { ...spec, tape: new Map(), response: "" };
    upstream.tape = scenario.tape;
    upstream.mode = "record";
    try {
      scenario.response = await runRequest(scenario, env, true);
    } finally {
      upstream.mode = "live";
    }
    scenarios.set(scenario.name, scenario);
    return Response.json({
      recorded: [...scenario.tape.keys()],
      replies: scriptReplies(scenario).length,
      response: scenario.response.slice(0, 300),
    });
  }
  if (url.pathname === "/__profile/run") {
    const { scenario: name, phase, n } = (await request.json()) as { scenario: string; phase: string; n: number };
    const scenario = scenarios.get(name);
    const run = PHASES[phase];
    if (!scenario || !run) return Response.json({ error: "unknown scenario or phase" }, { status: 400 });
    upstream.tape = scenario.tape;
    upstream.mode = "replay";
    upstream.misses = 0;
    try {
      await run(scenario, env, n);
    } finally {
      upstream.mode = "live";
    }
    return Response.json({ misses: upstream.misses, distinctEnvs });
  }
  if (url.pathname === "/__profile/phases") return Response.json(Object.keys(PHASES));
  return Response.json({ error: "no such profile route" }, { status: 404 });
}

export default {
  async fetch(request: Request, env: object, ctx: Context): Promise<Response> {
    if (!envsSeen.has(env)) {
      envsSeen.add(env);
      distinctEnvs++;
    }
    if (new URL(request.url).pathname.startsWith("/__profile/")) return handleProfile(request, env);
    return worker.fetch(request, env as never, ctx as never);
  },
};
