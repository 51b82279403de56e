import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { KEY_B, call, clearFault, clearLog, injectFault, uniqueId, upstreamLog } from "../support/helpers.ts";
import { addFact } from "../support/facts.ts";
import { chatRequests, postChat, resetLlm, setLlmMode, sleep, turnRequests, waitFor } from "../support/chat.ts";
import { append, rounds, sessionPath } from "../support/sessions.ts";

interface TraceCandidate {
  id: string;
  text: string;
  similarity: number;
  relevance: number;
  score: number;
  gate: "pass" | "reject";
  kept: boolean;
  reason: string;
}

interface TraceView {
  traceId: string;
  kind: string;
  sessionId: string;
  userId: string | null;
  requestId: string;
  recall: { query: string; mode: string; k: number; candidates: TraceCandidate[] } | null;
  context: {
    budget: { total: number; available: number; used: number };
    system: { tokens: number; messages: number };
    summary: { tokens: number } | null;
    facts: { tokens: number; ids: string[]; omitted: number };
    window: { tokens: number; messages: number; ids: string[] };
    total: number;
  };
  roundTrips: { name: string; ms: number; ok: boolean }[];
  degraded: string[];
}

interface ContextBody {
  tokens: { system: number; summary: number; facts: number; window: number; total: number };
  recalled: { id: string; score: number }[];
  trace?: TraceView;
}

const commands = (body: string): string[] => [...body.matchAll(/(?:^\[\[?|\],\[)"([A-Za-z]+)"/g)].map((m) => (m[1] ?? "").toUpperCase());

const sid = uniqueId("trace-s");
const user = uniqueId("trace-u");
let blue = "";
let green = "";

beforeAll(async () => {
  blue = (await addFact(user, { text: "The user's favourite colour is blue", type: "preference", importance: 0.9 })).id;
  green = (await addFact(user, { text: "The user's favourite colour used to be green", type: "preference", importance: 0.3 })).id;
  await addFact(user, { text: "The user owns a red bicycle", type: "fact", importance: 0.5 });
  await append(sid, [{ role: "system", content: "You are helpful." }, ...rounds("t", 4)], { userId: user });
});

afterEach(async () => {
  await resetLlm();
  await clearFault("vector");
});

describe("per-turn trace of a context read", () => {
  it("returns a trace id, and the stored trace explains every candidate and adds up to the context's tokens", async () => {
    const res = await call<ContextBody>(
      "GET",
      `${sessionPath(sid)}/context?userId=${user}&k=1&query=${encodeURIComponent("favourite colour")}`,
    );
    expect(res.status, res.text).toBe(200);
    const traceId = res.headers.get("x-memory-trace-id");
    expect(traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json.trace).toBeUndefined();

    const stored = await call<TraceView>("GET", `/v1/traces/${traceId}`);
    expect(stored.status, stored.text).toBe(200);
    const trace = stored.json;
    expect(trace).toMatchObject({ traceId, kind: "context", sessionId: sid, userId: user, requestId: res.headers.get("x-request-id") });
    expect(trace.recall).toMatchObject({ query: "favourite colour", mode: "hybrid", k: 1 });

    const candidates = trace.recall?.candidates ?? [];
    const injected = candidates.filter((c) => c.kept);
    expect(injected.map((c) => c.id)).toEqual(res.json.recalled.map((r) => r.id));
    expect(injected).toHaveLength(1);
    expect(injected[0]).toMatchObject({ id: blue, reason: "injected" });
    expect(injected[0]?.score).toBe(res.json.recalled[0]?.score);
    // k=1: the other colour fact is dropped with its reason and score, never silently.
    const dropped = candidates.filter((c) => !c.kept);
    expect(dropped.length).toBeGreaterThanOrEqual(1);
    const other = dropped.find((c) => c.id === green);
    expect(other?.reason).toMatch(/^(beyond_k|gate_rejected)$/);
    expect(injected[0]?.gate).toBe("pass");
    expect(other?.score).toBeGreaterThan(0);
    for (const c of candidates) expect(c.similarity).toBeGreaterThan(0);

    // Per-part tokens add up to the context's, and the facts part lists the injected fact.
    const ctx = trace.context;
    const tokens = res.json.tokens;
    expect([ctx.system.tokens, ctx.summary?.tokens ?? 0, ctx.facts.tokens, ctx.window.tokens]).toEqual([
      tokens.system,
      tokens.summary,
      tokens.facts,
      tokens.window,
    ]);
    expect(ctx.system.tokens + (ctx.summary?.tokens ?? 0) + ctx.facts.tokens + ctx.window.tokens).toBe(tokens.total);
    expect(ctx.total).toBe(tokens.total);
    expect(ctx.budget.used).toBe(tokens.total);
    expect(ctx.facts.ids).toEqual([blue]);
    expect(ctx.system.messages).toBe(1);
    expect(ctx.window.messages).toBe(4);
    expect(trace.roundTrips.map((r) => r.name).sort()).toEqual(["redis.read", "vector.query"]);
    expect(trace.degraded).toEqual([]);
  });

  it("returns the trace inline with ?trace=true, and lists it under the session", async () => {
    const res = await call<ContextBody>("GET", `${sessionPath(sid)}/context?userId=${user}&query=bicycle&trace=true`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.trace?.traceId).toBe(res.headers.get("x-memory-trace-id"));
    expect(res.json.trace?.context.total).toBe(res.json.tokens.total);
    const list = await call<{ traces: { traceId: string; kind: string }[] }>("GET", `${sessionPath(sid)}/traces`);
    expect(list.status).toBe(200);
    expect(list.json.traces[0]).toMatchObject({ traceId: res.json.trace?.traceId, kind: "context" });
  });

  it("is another tenant's 404, and an unknown id is a 404", async () => {
    const res = await call("GET", `${sessionPath(sid)}/context?userId=${user}&query=colour`);
    const traceId = res.headers.get("x-memory-trace-id");
    expect((await call("GET", `/v1/traces/${traceId}`, { key: KEY_B })).status).toBe(404);
    expect((await call("GET", `/v1/traces/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await call("GET", `/v1/traces/${traceId}`)).status).toBe(200);
  });

  it("is neither stored nor given an id with TRACE_TTL_SECONDS=0, yet still inline when asked", async () => {
    const off = { TRACE_TTL_SECONDS: "0" };
    const res = await call("GET", `${sessionPath(sid)}/context?userId=${user}&query=colour`, { env: off });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-memory-trace-id")).toBeNull();
    const inline = await call<ContextBody>("GET", `${sessionPath(sid)}/context?userId=${user}&query=colour&trace=true`, { env: off });
    expect(inline.json.trace?.recall?.candidates.length).toBeGreaterThan(0);
    expect((await call("GET", `/v1/traces/${inline.json.trace?.traceId}`, { env: off })).status).toBe(404);
  });

  it("writes trace and metrics in one background request each, never on the response path", async () => {
    await clearLog("redis");
    const res = await call("GET", `${sessionPath(sid)}/context?userId=${user}&query=colour`, { drain: false });
    expect(res.status).toBe(200);
    await res.drained;
    const all = await upstreamLog("redis", { telemetry: true });
    const telemetry = all.filter((r) => /"am:acme:obs:/.test(r.body));
    expect(all.filter((r) => r.body.includes(sid) && !/"am:acme:obs:/.test(r.body)).map((r) => commands(r.body))).toEqual([["EVALSHA"]]);
    // One script storing the trace (it checks the user's erase tombstone), one pipeline adding the metrics.
    expect(telemetry).toHaveLength(2);
    expect(telemetry.some((r) => r.body.includes(":obs:tr:") && commands(r.body)[0] === "EVALSHA")).toBe(true);
    expect(telemetry.some((r) => r.body.includes(":obs:c") && commands(r.body).includes("HINCRBY"))).toBe(true);
  });
});

describe("a degraded read", () => {
  it("records the failed Vector query and the degraded part", async () => {
    await injectFault("vector", { mode: "error", durationMs: 30_000 });
    const res = await call<ContextBody & { degraded?: string[] }>(
      "GET",
      `${sessionPath(sid)}/context?userId=${user}&query=colour&trace=true`,
    );
    expect(res.status).toBe(200);
    expect(res.json.degraded).toEqual(["facts"]);
    expect(res.json.trace?.degraded).toEqual(["facts"]);
    expect(res.json.trace?.recall).toBeNull();
    expect(res.json.trace?.roundTrips.find((r) => r.name === "vector.query")?.ok).toBe(false);
    expect(res.json.trace?.roundTrips.find((r) => r.name === "redis.read")?.ok).toBe(true);
  });
});

describe("chat turns and proxied completions", () => {
  it("a streamed turn sends the trace id as a header and stores the trace", async () => {
    const streamSid = uniqueId("trace-stream");
    const res = await call("POST", `${sessionPath(streamSid)}/chat?trace=true`, {
      body: { message: "hello there", userId: user, stream: true },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.text).not.toContain('"trace"');
    const stored = await call<TraceView>("GET", `/v1/traces/${res.headers.get("x-memory-trace-id")}`);
    expect(stored.status).toBe(200);
    expect(stored.json).toMatchObject({ kind: "chat", sessionId: streamSid });
    expect(stored.json.context.total).toBeGreaterThan(0);
  });

  it("keeps the round trips before the LLM unchanged with the trace asked inline", async () => {
    const chatSid = uniqueId("trace-chat");
    await postChat(chatSid, { message: "my favourite colour is blue", userId: user });
    await clearLog("redis");
    await clearLog("vector");
    await setLlmMode({ mode: "echo", delayMs: 1500 });
    const message = "which colour do I like";
    const started = Date.now();
    // Fact extraction would run its own background query next to the LLM call; off, nothing does.
    const env = { FACT_EXTRACTION: "off" };
    const pending = call<{ trace?: TraceView }>("POST", `${sessionPath(chatSid)}/chat?trace=true`, {
      body: { message, userId: user },
      env,
    });
    await waitFor(async () => turnRequests(await chatRequests(), message)[0], "the turn's LLM call", 1300);
    await sleep(Math.max(0, 500 - (Date.now() - started)));
    const [redis, vector] = await Promise.all([upstreamLog("redis", { telemetry: true }), upstreamLog("vector")]);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(redis.map((r) => commands(r.body))).toEqual([["EVALSHA"]]);
    expect(vector.length).toBeLessThanOrEqual(1);

    const res = await pending;
    expect(res.status, res.text).toBe(200);
    const trace = res.json.trace;
    expect(trace?.kind).toBe("chat");
    expect(trace?.traceId).toBe(res.headers.get("x-memory-trace-id"));
    expect(trace?.roundTrips.map((r) => r.name)).toEqual(expect.arrayContaining(["redis.append", "llm"]));
  });

  it("traces a proxied completion with X-Memory-Trace: 1", async () => {
    const proxySid = uniqueId("trace-proxy");
    const res = await call<{ choices: unknown[]; trace?: TraceView }>("POST", "/v1/chat/completions", {
      headers: { "x-memory-session": proxySid, "x-memory-user": user, "x-memory-trace": "1" },
      body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "what colour do I like?" }] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.choices.length).toBeGreaterThan(0);
    expect(res.json.trace).toMatchObject({ kind: "proxy", sessionId: proxySid });
    const stored = await call<TraceView>("GET", `/v1/traces/${res.headers.get("x-memory-trace-id")}`);
    expect(stored.json.kind).toBe("proxy");
  });
});
