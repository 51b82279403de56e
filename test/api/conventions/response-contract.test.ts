import type { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/http/app.ts";
import { call, uniqueId } from "../support/helpers.ts";
import { resetLlm, setLlmMode } from "../support/llm.ts";

// The contract at run time: every operation is called and its answer is parsed with the zod schema
// its route declares for that status. Zod drops keys a schema does not name, so `parse(body)` equal
// to `body` also means the answer carries no field the contract leaves out. The compiler checks the
// handlers against the same schemas; this catches what types cannot (an `undefined` that vanishes,
// a number where JSON has null, a field spread in from the domain).

interface DeclaredRoute {
  method: string;
  path: string;
  responses: Record<string, { content?: Record<string, { schema?: z.ZodType }> }>;
}

const declared: DeclaredRoute[] = buildApp(() => {
  throw new Error("not served");
}).openAPIRegistry.definitions.flatMap((d) => (d.type === "route" ? [d.route as unknown as DeclaredRoute] : []));

const checked = new Set<string>();

/** The route `path` (concrete) answers with, by its OpenAPI template. */
function routeOf(method: string, path: string): DeclaredRoute {
  const bare = path.split("?")[0] ?? path;
  const route = declared.find(
    (r) => r.method === method.toLowerCase() && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(bare),
  );
  if (!route) throw new Error(`no declared route for ${method} ${bare}`);
  return route;
}

/** Calls the Worker and checks the answer against the declared schema of its status. */
async function conforming(
  method: string,
  path: string,
  options: Parameters<typeof call>[2] = {},
  status = 200,
): Promise<Record<string, unknown>> {
  const route = routeOf(method, path);
  const res = await call(method, path, options);
  expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBe(status);
  const schema = route.responses[String(status)]?.content?.["application/json"]?.schema;
  expect(schema, `${method} ${route.path} declares no JSON schema for ${status}`).toBeDefined();
  const parsed = (schema as z.ZodType).safeParse(res.json);
  expect(parsed.success ? [] : parsed.error.issues, `${method} ${route.path} ${status}`).toEqual([]);
  expect(parsed.data, `${method} ${route.path} ${status} answers fields its schema does not declare`).toEqual(res.json);
  checked.add(`${method.toUpperCase()} ${route.path}`);
  return res.json;
}

describe("every answer matches the schema its route declares", () => {
  const sessionId = uniqueId("contract");
  const userId = uniqueId("contract-user");
  const s = `/v1/sessions/${sessionId}`;
  const f = `/v1/users/${userId}/facts`;

  beforeAll(async () => {
    await resetLlm();
    await setLlmMode({ mode: "echo" });
  });
  afterAll(resetLlm);

  it("sessions, messages and working memory", async () => {
    const messages = [
      { id: "sys", role: "system", content: "You are terse." },
      { id: "m1", role: "user", content: "I live in Lisbon and like green tea", persist: true, metadata: { source: "test" } },
      {
        id: "m2",
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } }],
      },
      { id: "m3", role: "tool", tool_call_id: "call_1", content: "ok" },
    ];
    await conforming("POST", `${s}/messages`, { body: { userId, messages } }, 201);
    await conforming("GET", `${s}/context?query=tea&userId=${userId}`);
    await conforming("GET", s);
    await conforming("PUT", s, { body: { maxTokens: 60, keep: 1 } });
    await conforming("POST", `${s}/compress?force=true`);
    await conforming("POST", `${s}/compress`);
    await conforming("GET", `${s}/history`);
    await conforming("PUT", `${s}/notes/goal`, { body: { value: "book a flight" } });
    await conforming("GET", `${s}/notes/goal`);
    await conforming("GET", `${s}/notes`);
    await conforming("DELETE", `${s}/notes/goal`);
    await conforming("DELETE", `${s}/notes`);
    await conforming("POST", `${s}/scratchpad`, { body: { entry: "searched flights" } });
    await conforming("GET", `${s}/scratchpad`);
    await conforming("DELETE", `${s}/scratchpad`);
    await conforming("DELETE", `${s}?keepSystem=true`);
  });

  it("chat turns, the OpenAI-compatible proxy and the model list", async () => {
    await conforming("POST", `${s}/chat`, { body: { message: "What do I drink?", messageId: "c1", userId } });
    // A retry answers from storage: no usage, same shape.
    await conforming("POST", `${s}/chat`, { body: { message: "What do I drink?", messageId: "c1", userId } });
    const completion = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Hello there" }] };
    await conforming("POST", "/v1/chat/completions", {
      body: completion,
      headers: { "x-memory-session": `${sessionId}-proxy`, "idempotency-key": "k1" },
    });
    await conforming("POST", "/v1/chat/completions", {
      body: completion,
      headers: { "x-memory-session": `${sessionId}-proxy`, "idempotency-key": "k1" },
    });
    await conforming("GET", "/v1/models");
  });

  it("facts", async () => {
    const added = await conforming(
      "POST",
      f,
      { body: { text: "Likes green tea", type: "preference", importance: 0.8, metadata: { from: "test" } } },
      201,
    );
    await conforming("POST", f, { body: { text: "Likes green tea" } }, 200);
    const id = String(added.id);
    await conforming("GET", `${f}?query=tea&minScore=0`);
    await conforming("GET", `${f}?limit=10`);
    await conforming("GET", `${f}/${id}`);
    await conforming("PATCH", `${f}/${id}`, { body: { text: "Likes green and white tea" } });
    await conforming("DELETE", `${f}/${id}`);
    await conforming("POST", `${f}/import`, {
      body: { facts: [{ text: "Visited Porto in May", type: "experience", createdAt: "2026-05-02T10:00:00Z" }] },
    });
  });

  it("users: session list, export, erase", async () => {
    await conforming("GET", `/v1/users/${userId}/sessions`);
    await conforming("GET", `/v1/users/${userId}/export`);
    // No snapshot of this user yet: restore answers 404 with the shared error body.
    await conforming("POST", `/v1/users/${userId}/restore`, {}, 404);
    await conforming("DELETE", `/v1/users/${userId}`);
  });

  it("traces and stats", async () => {
    const context = await conforming("GET", `${s}-traced/context?query=tea&userId=${userId}&trace=true`);
    const traceId = String((context.trace as { traceId: string }).traceId);
    await conforming("GET", `/v1/traces/${traceId}`);
    await conforming("GET", `${s}-traced/traces`);
    await conforming("GET", "/v1/stats");
  });

  it("tokens and the audit log", async () => {
    const env = { TOKEN_SECRET: "contract-secret-0123456789-abcdefghij" };
    await conforming("POST", "/v1/tokens", { body: { userId, sessionId, scopes: ["read"], ttlSeconds: 600 }, env }, 201);
    await conforming("GET", "/v1/audit?since=0&limit=10");
  });

  it("the health probe, up and down", async () => {
    await conforming("GET", "/healthz", { key: null });
    await conforming("GET", "/healthz", { key: null, env: { UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9" } }, 503);
  });

  it("errors: one shared body", async () => {
    await conforming("GET", `${f}/f_missing`, {}, 404);
    await conforming("GET", s, { key: null }, 401);
    await conforming("PUT", s, { body: { maxTokens: 1 } }, 400);
    await conforming("PUT", s, { raw: "maxTokens=60", headers: { "content-type": "text/plain" } }, 415);
  });

  it("called every operation the app declares", () => {
    const all = declared.map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(all.filter((op) => !checked.has(op))).toEqual([]);
  });
});
