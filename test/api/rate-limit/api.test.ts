import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, clearLog, uniqueId, upstreamLog } from "../support/helpers.ts";
import { chatRequests, resetLlm, setLlmMode, setUpstreamDelay, sleep, turnRequests, waitFor } from "../support/chat.ts";

/**
 * A fresh key per test: the limiter's windows live in the shared Redis. Windows are a day long so
 * no test straddles a window boundary (where a sliding window forgets part of the last one).
 */
function limited(limit: string, extraKeys = 0) {
  const keys = Array.from({ length: 1 + extraKeys }, () => uniqueId("rl-key"));
  const env = { RATE_LIMIT: limit, API_KEYS: ["acme:acme-key", ...keys.map((k) => `acme:${k}`)].join(","), FACT_EXTRACTION: "off" };
  return { key: keys[0]!, keys, env };
}

/** Command names of a logged Redis body, `["CMD", ...]` or a pipeline. */
const commands = (body: string): string[] => [...body.matchAll(/(?:^\[\[?|\],\[)"([A-Za-z]+)"/g)].map((m) => (m[1] ?? "").toUpperCase());

beforeAll(resetLlm);
afterEach(async () => {
  await resetLlm();
  await setUpstreamDelay("redis", 0);
});

describe("RATE_LIMIT", () => {
  it("the request past the limit gets 429 with Retry-After, RateLimit-* headers and a JSON error", async () => {
    const { key, keys, env } = limited("3/24h", 1);
    const sid = uniqueId("rl");
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call("GET", `/v1/sessions/${sid}`, { key, env });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("3");
      remaining.push(res.headers.get("ratelimit-remaining"));
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await call<{ error: { code: string; message: string } }>("GET", `/v1/sessions/${sid}`, { key, env });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(86_400);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("ratelimit-reset")).not.toBeNull();
    // Another key of the same tenant has its own window.
    expect((await call("GET", `/v1/sessions/${sid}`, { key: keys[1]!, env })).status).toBe(200);
  });

  it("a refused write stores nothing", async () => {
    const { key, env } = limited("1/24h");
    const sid = uniqueId("rl-w");
    const first = await call("POST", `/v1/sessions/${sid}/messages`, {
      key,
      env,
      body: { messages: [{ id: "a", role: "user", content: "one" }] },
    });
    expect(first.status).toBe(201);
    const refused = await call("POST", `/v1/sessions/${sid}/messages`, {
      key,
      env,
      body: { messages: [{ id: "b", role: "user", content: "two" }] },
    });
    expect(refused.status).toBe(429);
    const state = await call<{ window: { id: string }[] }>("GET", `/v1/sessions/${sid}`);
    expect(state.json.window.map((m) => m.id)).toEqual(["a"]);
  });

  it("counts per user too: two keys asking about one user share the user's window", async () => {
    const { keys, env } = limited("2/24h", 1);
    const user = uniqueId("rl-u");
    expect((await call("GET", `/v1/users/${user}/sessions`, { key: keys[0]!, env })).status).toBe(200);
    expect((await call("GET", `/v1/users/${user}/sessions`, { key: keys[1]!, env })).status).toBe(200);
    expect((await call("GET", `/v1/users/${user}/sessions`, { key: keys[1]!, env })).status).toBe(429);
    // Another user is not limited by that.
    expect((await call("GET", `/v1/users/${uniqueId("rl-u")}/sessions`, { key: keys[0]!, env })).status).toBe(200);
  });

  it("a refused chat turn never reaches the LLM", async () => {
    const { key, env } = limited("1/24h");
    const sid = uniqueId("rl-chat");
    const first = await call("POST", `/v1/sessions/${sid}/chat`, { key, env, body: { message: "first question", messageId: "q1" } });
    expect(first.status, first.text).toBe(200);
    const message = "second question";
    const refused = await call("POST", `/v1/sessions/${sid}/chat`, { key, env, body: { message, messageId: "q2" } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(turnRequests(await chatRequests(), message)).toEqual([]);
    const proxy = await call<{ error: { code: string; type: string } }>("POST", "/v1/chat/completions", {
      key,
      env,
      headers: { "x-memory-session": sid },
      body: { model: "m", messages: [{ role: "user", content: "third" }] },
    });
    expect(proxy.status).toBe(429);
    expect(proxy.json.error.code).toBe("rate_limited");
    expect(turnRequests(await chatRequests(), "third")).toEqual([]);
  });

  it("is off without RATE_LIMIT: no headers, no limit", async () => {
    const res = await call("GET", `/v1/sessions/${uniqueId("rl-off")}`);
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });
});

describe("round trips with RATE_LIMIT on", () => {
  const LLM_DELAY_MS = 1500;

  it("a chat turn still costs one Redis request of its own before the LLM, the limit check one more beside it", async () => {
    const { key, env } = limited("100/24h");
    const user = uniqueId("rt-user");
    const sid = uniqueId("rt-rl");
    // Scripts loaded (no NOSCRIPT retry below): the chat turn's, and the context read's for the read at the end.
    expect((await call("POST", `/v1/sessions/${sid}/chat`, { key, env, body: { message: "warm up", userId: user } })).status).toBe(200);
    expect((await call("GET", `/v1/sessions/${sid}/context?userId=${user}`, { key, env })).status).toBe(200);
    await clearLog("redis");
    await setLlmMode({ mode: "echo", delayMs: LLM_DELAY_MS });
    const message = "what is on the agenda";
    const started = Date.now();
    // As fetch sends it: the limiter reads a body's userId only when its size is declared.
    const body = { message, userId: user };
    const headers = { "content-length": String(new TextEncoder().encode(JSON.stringify(body)).length) };
    const pending = call("POST", `/v1/sessions/${sid}/chat`, { key, env, body, headers });
    await waitFor(async () => turnRequests(await chatRequests(), message)[0], "the turn's LLM call", LLM_DELAY_MS - 200);
    await sleep(Math.max(0, 500 - (Date.now() - started)));
    const redis = await upstreamLog("redis");
    expect(Date.now() - started).toBeLessThan(LLM_DELAY_MS);
    const limit = redis.filter((r) => r.body.includes("am:rl:"));
    const own = redis.filter((r) => !r.body.includes("am:rl:"));
    expect(own.map((r) => commands(r.body))).toEqual([["EVALSHA"]]);
    // Both identifiers (key and user) in one pipelined request.
    expect(limit.map((r) => commands(r.body))).toEqual([["EVALSHA", "EVALSHA"]]);
    expect((await pending).status).toBe(200);

    // A context read: its own one request, and the check beside it.
    await clearLog("redis");
    const read = await call("GET", `/v1/sessions/${sid}/context?userId=${user}`, { key, env });
    expect(read.status).toBe(200);
    const log = await upstreamLog("redis");
    expect(log.filter((r) => !r.body.includes("am:rl:")).map((r) => commands(r.body))).toEqual([["EVALSHA"]]);
    expect(log.filter((r) => r.body.includes("am:rl:")).map((r) => commands(r.body))).toEqual([["EVALSHA", "EVALSHA"]]);
  });

  it("the limit check runs in parallel with the first Redis request, on a chat turn and on a read", async () => {
    const { key, env } = limited("100/24h");
    const sid = uniqueId("rt-par");
    expect((await call("POST", `/v1/sessions/${sid}/chat`, { key, env, body: { message: "warm up" } })).status).toBe(200);
    const delay = 400;
    await setUpstreamDelay("redis", delay);

    const message = "anything else for Thursday";
    const started = Date.now();
    const pending = call("POST", `/v1/sessions/${sid}/chat`, { key, env, body: { message }, drain: false });
    await waitFor(async () => turnRequests(await chatRequests(), message)[0], "the turn's LLM call");
    const beforeLlm = Date.now() - started;
    expect((await pending).status).toBe(200);
    expect(beforeLlm).toBeGreaterThanOrEqual(delay);
    // Two sequential round trips would take at least 2 x 400 ms.
    expect(beforeLlm).toBeLessThan(2 * delay - 100);

    const readStarted = Date.now();
    const read = await call("GET", `/v1/sessions/${sid}/context`, { key, env, drain: false });
    const readTook = Date.now() - readStarted;
    expect(read.status).toBe(200);
    expect(read.headers.get("ratelimit-limit")).toBe("100");
    expect(readTook).toBeLessThan(2 * delay - 100);
  });
});
