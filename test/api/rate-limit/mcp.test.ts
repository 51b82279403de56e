import { beforeAll, describe, expect, it } from "vitest";
import { call, clearLog, uniqueId, upstreamLog } from "../support/helpers.ts";
import { resetLlm } from "../support/chat.ts";

/**
 * RATE_LIMIT over every route family, `/mcp` included: no request answers 5xx, and a JSON-RPC
 * batch costs one unit per tool call, against the credential and against each user it names.
 * A fresh key per test: the limiter's windows live in the shared Redis and are a day long.
 */

function limited(limit: string, extraKeys = 0) {
  const keys = Array.from({ length: 1 + extraKeys }, () => uniqueId("rlm-key"));
  const env = {
    RATE_LIMIT: limit,
    API_KEYS: ["acme:acme-key", ...keys.map((k) => `acme:${k}`)].join(","),
    FACT_EXTRACTION: "off",
    TOKEN_SECRET: "test-token-secret-0123456789abcdef",
  };
  return { key: keys[0]!, keys, env };
}

const MCP_HEADERS = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

interface RpcAnswer {
  id: number;
  result?: { isError?: boolean; content: { text: string }[] };
}

beforeAll(resetLlm);

describe("RATE_LIMIT on every route family", () => {
  it("answers every /v1 and /mcp request without a 5xx, and counts /mcp like /v1", async () => {
    const { key, env } = limited("500/24h");
    const user = uniqueId("rlm-u");
    const sid = uniqueId("rlm-s");
    const statuses: [string, number][] = [];
    const send = async (method: string, path: string, options: Parameters<typeof call>[2] = {}) => {
      const res = await call(method, path, { key, env, ...options });
      statuses.push([`${method} ${path}`, res.status]);
      return res;
    };
    expect(
      (await send("POST", `/v1/sessions/${sid}/messages`, { body: { userId: user, messages: [{ role: "user", content: "hi" }] } })).status,
    ).toBe(201);
    await send("GET", `/v1/sessions/${sid}`);
    await send("GET", `/v1/sessions/${sid}/context`);
    await send("GET", `/v1/sessions/${sid}/history`);
    await send("PUT", `/v1/sessions/${sid}`, { body: { userId: user } });
    await send("POST", `/v1/users/${user}/facts`, { body: { text: "The user keeps bees" } });
    await send("GET", `/v1/users/${user}/facts`);
    await send("GET", `/v1/users/${user}/facts?query=bees`);
    await send("GET", `/v1/users/${user}/sessions`);
    await send("GET", `/v1/users/${user}/export`);
    await send("POST", `/v1/sessions/${sid}/chat`, { body: { message: "what do I keep?" } });
    await send("POST", "/v1/chat/completions", {
      headers: { "x-memory-session": sid },
      body: { model: "m", messages: [{ role: "user", content: "and what else?" }] },
    });
    await send("GET", "/v1/models");
    const minted = await send("POST", "/v1/tokens", { body: { userId: user, scopes: ["read", "write"] } });
    expect(minted.status).toBe(201);
    await send("GET", "/v1/audit");
    await send("GET", "/v1/stats");
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const mcp = await send("POST", "/mcp", { headers: MCP_HEADERS, body: init });
    expect(mcp.status, mcp.text).toBe(200);
    expect(mcp.headers.get("ratelimit-limit")).toBe("500");
    await send("POST", "/mcp", { headers: MCP_HEADERS, body: { jsonrpc: "2.0", id: 2, method: "tools/list" } });
    await send("POST", "/mcp", { headers: { ...MCP_HEADERS, "x-memory-user": user }, body: toolCall(3, "recall", { query: "bees" }) });
    await send("GET", "/mcp", { headers: MCP_HEADERS });
    await send("HEAD", "/mcp", { headers: MCP_HEADERS });
    // A user token on /mcp counts against its own user.
    const token = (minted.json as { token: string }).token;
    const byToken = await send("POST", "/mcp", { key: token, headers: MCP_HEADERS, body: toolCall(4, "list_memories", {}) });
    expect(byToken.headers.get("ratelimit-remaining")).not.toBeNull();
    await send("GET", "/mcp", { key: token, headers: MCP_HEADERS });
    expect(statuses.filter(([, status]) => status >= 500)).toEqual([]);
    expect(statuses.filter(([, status]) => status === 429)).toEqual([]);
  });

  it("refuses /mcp GET and HEAD past the limit like every other request", async () => {
    const { key, env } = limited("1/24h");
    expect((await call("GET", "/mcp", { key, env, headers: MCP_HEADERS })).status).toBe(405);
    expect((await call("HEAD", "/mcp", { key, env, headers: MCP_HEADERS })).status).toBe(429);
    expect(
      (await call("POST", "/mcp", { key, env, headers: MCP_HEADERS, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } })).status,
    ).toBe(429);
  });
});

describe("a JSON-RPC batch on /mcp", () => {
  it("costs one unit per tool call: a batch larger than what is left is refused and runs nothing", async () => {
    const { key, env } = limited("5/24h");
    const user = uniqueId("rlm-b");
    const remember = (id: number) => toolCall(id, "remember", { userId: user, text: `The user owns kite number ${id}` });
    const three = await call<RpcAnswer[]>("POST", "/mcp", {
      key,
      env,
      headers: MCP_HEADERS,
      body: [remember(1), remember(2), remember(3)],
    });
    expect(three.status, three.text).toBe(200);
    expect(three.json.map((a) => a.result?.isError ?? false)).toEqual([false, false, false]);
    expect(three.headers.get("ratelimit-remaining")).toBe("2");
    // 3 more calls do not fit in the 2 units left: refused whole, nothing stored.
    const refused = await call("POST", "/mcp", { key, env, headers: MCP_HEADERS, body: [remember(4), remember(5), remember(6)] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    const facts = await call<{ facts: { text: string }[] }>("GET", `/v1/users/${user}/facts`);
    expect(facts.json.facts.map((f) => f.text).sort()).toEqual([1, 2, 3].map((n) => `The user owns kite number ${n}`));
  });

  it("a batch of more calls than the whole limit is refused, and its calls still count", async () => {
    const { key, env } = limited("3/24h");
    const user = uniqueId("rlm-big");
    const calls = Array.from({ length: 10 }, (_, i) => toolCall(i + 1, "recall", { userId: user, query: "anything" }));
    const refused = await call("POST", "/mcp", { key, env, headers: MCP_HEADERS, body: calls });
    expect(refused.status).toBe(429);
    // The 10 units were taken, as sending the 10 calls one by one would have: the window is used up.
    expect((await call("POST", "/mcp", { key, env, headers: MCP_HEADERS, body: calls[0] })).status).toBe(429);
    expect((await call("GET", `/v1/users/${user}/facts`, { env })).status).toBe(429);
  });

  it("counts each call against the user it names", async () => {
    const { keys, env } = limited("2/24h", 2);
    const a = uniqueId("rlm-a");
    const b = uniqueId("rlm-b");
    const recall = (id: number, userId: string) => toolCall(id, "recall", { userId, query: "tea" });
    // One call for a, one for b: each user has 1 of its 2 units left.
    expect((await call("POST", "/mcp", { key: keys[0]!, env, headers: MCP_HEADERS, body: [recall(1, a), recall(2, b)] })).status).toBe(200);
    // Another key, two calls for a: a has only one unit left.
    expect((await call("POST", "/mcp", { key: keys[1]!, env, headers: MCP_HEADERS, body: [recall(3, a), recall(4, a)] })).status).toBe(429);
    // A third key: one call for b still fits, then b is full, whatever route names it.
    expect((await call("POST", "/mcp", { key: keys[2]!, env, headers: MCP_HEADERS, body: recall(5, b) })).status).toBe(200);
    expect((await call("GET", `/v1/users/${b}/facts`, { key: keys[2]!, env })).status).toBe(429);
  });

  it("checks every identifier of a batch in one Redis request", async () => {
    const { key, env } = limited("100/24h");
    const [a, b] = [uniqueId("rlm-rt"), uniqueId("rlm-rt")];
    const recall = (id: number, userId: string) => toolCall(id, "recall", { userId, query: "tea" });
    // Scripts loaded, so no NOSCRIPT retry below.
    expect((await call("POST", "/mcp", { key, env, headers: MCP_HEADERS, body: recall(1, a) })).status).toBe(200);
    await clearLog("redis");
    const res = await call("POST", "/mcp", { key, env, headers: MCP_HEADERS, body: [recall(2, a), recall(3, b), recall(4, a)] });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("ratelimit-remaining")).toBe("96");
    const limits = (await upstreamLog("redis")).filter((r) => r.body.includes("am:rl:"));
    // The key, a (2 units) and b (1 unit): three scripts, one pipelined request.
    expect(limits).toHaveLength(1);
    expect([...limits[0]!.body.matchAll(/"EVALSHA"/gi)]).toHaveLength(3);
  });

  it("counts discovery messages once, however many", async () => {
    const { key, env } = limited("3/24h");
    const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
    const res = await call("POST", "/mcp", { key, env, headers: MCP_HEADERS, body: [list(1), list(2), list(3), list(4)] });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("ratelimit-remaining")).toBe("2");
  });
});
