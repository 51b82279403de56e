import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../../src/index.ts";
import type { Bindings } from "../../../src/worker/env.ts";
import { call, uniqueId } from "../support/helpers.ts";

/** The official MCP client against `/mcp`, its HTTP requests handed to the Worker in-process. */

const SECRET = "test-token-secret-0123456789abcdef";
const ENV = { TOKEN_SECRET: SECRET, API_KEYS: "acme:acme-key,globex:globex-key,acme:acme-dashboard:read" };

/** Every request the client sends, by method, with its HTTP status. */
const sent: { method: string; status: number }[] = [];

const workerFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    { ...env, ...ENV } as unknown as Bindings,
    ctx,
  );
  const body = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  sent.push({ method: request.method, status: response.status });
  return new Response(response.status === 202 || response.status === 204 ? null : body, {
    status: response.status,
    headers: response.headers,
  });
};

const open: Client[] = [];

async function connect(bearer: string | null, headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("http://agent-memory.test/mcp"), {
    fetch: workerFetch,
    requestInit: { headers: { ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }), ...headers } },
  });
  const client = new Client({ name: "mcp-test", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(transport);
  open.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

const text = (result: unknown): string => ((result as CallToolResult).content[0] as { text: string }).text;

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { text: text(result), isError: result.isError === true };
}

async function mint(body: Record<string, unknown>): Promise<string> {
  const res = await call<{ token: string }>("POST", "/v1/tokens", { body, env: ENV });
  expect(res.status, res.text).toBe(201);
  return res.json.token;
}

const factId = (answer: string): string => /^Stored: (\S+)/.exec(answer)?.[1] ?? "";

describe("MCP server at /mcp", () => {
  it("lists its tools with schemas and descriptions a model can use", async () => {
    const client = await connect("acme-key");
    expect(client.getServerVersion()?.name).toBe("agent-memory");
    expect(client.getInstructions()).toContain("recall");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["forget", "get_context", "list_memories", "recall", "remember"]);
    const recall = tools.find((t) => t.name === "recall")!;
    expect(recall.description).toMatch(/by meaning/);
    expect(recall.inputSchema.required).toEqual(["query"]);
    expect(Object.keys(recall.inputSchema.properties ?? {}).sort()).toEqual(["agentId", "k", "metadata", "query", "types", "userId"]);
    expect(recall.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === "forget")!.annotations?.destructiveHint).toBe(true);
    // Stateless: no session id, and GET (a standalone stream) is 405, which the client accepts.
    expect(sent.some((r) => r.method === "GET" && r.status === 405)).toBe(true);
  });

  it("with a key: remembers, recalls, lists, forgets, and the HTTP API sees the same facts", async () => {
    const user = uniqueId("mcp-u");
    const client = await connect("acme-key");
    const stored = await tool(client, "remember", {
      userId: user,
      text: "The user's daughter Lily is 7 and loves drawing",
      type: "fact",
      importance: 0.9,
    });
    expect(stored.isError, stored.text).toBe(false);
    const id = factId(stored.text);
    expect(id).not.toBe("");
    expect((await tool(client, "remember", { userId: user, text: "The user prefers green tea", type: "preference" })).isError).toBe(false);

    const again = await tool(client, "remember", { userId: user, text: "The user's daughter Lily is 7 and loves drawing" });
    expect(again.text).toMatch(/^Already known/);

    const recalled = await tool(client, "recall", { userId: user, query: "what does Lily love", k: 1 });
    expect(recalled.isError).toBe(false);
    expect(recalled.text).toContain(id);
    expect(recalled.text).toContain("loves drawing");
    const prefs = await tool(client, "recall", { userId: user, query: "tea", types: ["preference"] });
    expect(prefs.text).toContain("green tea");
    expect(prefs.text).not.toContain("Lily");

    // Metadata and agent filters, the same as the HTTP API's.
    expect(
      (await tool(client, "remember", { userId: user, text: "The user's brother Tom plays the cello", metadata: { topic: "family" } }))
        .isError,
    ).toBe(false);
    const family = await tool(client, "recall", { userId: user, query: "who plays the cello", metadata: { topic: "family" } });
    expect(family.text).toContain("cello");
    expect(family.text).not.toContain("green tea");
    const listed = await tool(client, "list_memories", { userId: user, metadata: { topic: "family" } });
    expect(listed.text).toMatch(/^1 memories of/);
    const badKey = await tool(client, "recall", { userId: user, query: "x", metadata: { "a.b": "c" } });
    expect(badKey.isError).toBe(true);

    const page = await tool(client, "list_memories", { userId: user, limit: 1 });
    expect(page.text).toMatch(/^1 memories of/);
    expect(page.text).toMatch(/cursor "[A-Za-z0-9_-]+"/);

    const http = await call<{ facts: { id: string }[] }>("GET", `/v1/users/${user}/facts`);
    expect(http.json.facts.map((f) => f.id)).toContain(id);

    const forgot = await tool(client, "forget", { userId: user, factId: id });
    expect(forgot.isError).toBe(false);
    expect((await call("GET", `/v1/users/${user}/facts/${id}`)).status).toBe(404);
    const gone = await tool(client, "forget", { userId: user, factId: id });
    expect(gone.isError).toBe(true);
    expect(gone.text).toMatch(/not_found/);
  });

  it("takes the user from X-Memory-User and assembles a session's context", async () => {
    const user = uniqueId("mcp-h");
    const sid = uniqueId("mcp-s");
    const appended = await call("POST", `/v1/sessions/${sid}/messages`, {
      body: { userId: user, messages: [{ role: "user", content: "I am planning a trip to Lisbon" }] },
    });
    expect(appended.status).toBe(201);
    const client = await connect("acme-key", { "x-memory-user": user, "x-memory-session": sid });
    expect((await tool(client, "remember", { text: "The user is vegetarian" })).isError).toBe(false);
    const context = await tool(client, "get_context", { query: "is the user vegetarian" });
    expect(context.isError, context.text).toBe(false);
    expect(context.text).toContain(`Context of session ${sid}`);
    expect(context.text).toContain("trip to Lisbon");
    expect(context.text).toContain("vegetarian");
  });

  it("answers bad input as an error result the model can read, and stores nothing", async () => {
    const user = uniqueId("mcp-bad");
    const client = await connect("acme-key");
    const missing = await tool(client, "remember", { text: "no user named" });
    expect(missing).toEqual({ isError: true, text: expect.stringContaining("pass userId") });
    const invalid = await tool(client, "recall", { userId: "a:b", query: "x" });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(/userId/);
    const unknownField = await tool(client, "remember", { userId: user, text: "x", colour: "red" });
    expect(unknownField.isError).toBe(true);
    const badK = await tool(client, "recall", { userId: user, query: "x", k: 500 });
    expect(badK.isError).toBe(true);
    expect(badK.text).toMatch(/k/);
    const noSession = await tool(client, "get_context", { userId: user });
    expect(noSession.text).toMatch(/pass sessionId/);
    const list = await call<{ facts: unknown[] }>("GET", `/v1/users/${user}/facts`);
    expect(list.json.facts).toEqual([]);
  });

  it("with a token: works on its own user only, within its scopes", async () => {
    const user = uniqueId("mcp-t");
    const other = uniqueId("mcp-o");
    const token = await mint({ userId: user, scopes: ["read", "write"] });
    const client = await connect(token);
    const stored = await tool(client, "remember", { text: "The user plays the cello" });
    expect(stored.isError, stored.text).toBe(false);
    expect((await tool(client, "recall", { query: "does the user play the cello" })).text).toContain("cello");
    const facts = await call<{ facts: { text: string }[] }>("GET", `/v1/users/${user}/facts`);
    expect(facts.json.facts.map((f) => f.text)).toEqual(["The user plays the cello"]);

    for (const [name, args] of [
      ["recall", { userId: other, query: "x" }],
      ["remember", { userId: other, text: "x" }],
      ["get_context", { sessionId: uniqueId("s") }],
    ] as const) {
      const refused = await client.callTool({ name, arguments: args }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused, name).toBeInstanceOf(StreamableHTTPError);
      expect((refused as StreamableHTTPError).code).toBe(403);
      expect(String((refused as Error).message)).toMatch(/another user|not bound to a session/);
    }
    expect((await call<{ facts: unknown[] }>("GET", `/v1/users/${other}/facts`)).json.facts).toEqual([]);

    // A token bound to a session reads that session's context without naming it, and no other.
    const sid = uniqueId("mcp-ts");
    await call("POST", `/v1/sessions/${sid}/messages`, {
      body: { userId: user, messages: [{ role: "user", content: "Cello lessons start on Monday" }] },
    });
    const bound = await connect(await mint({ userId: user, sessionId: sid, scopes: ["read"] }));
    const own = await tool(bound, "get_context", {});
    expect(own.text).toContain(`Context of session ${sid}`);
    expect(own.text).toContain("Cello lessons start on Monday");
    const elsewhere = await bound.callTool({ name: "get_context", arguments: { sessionId: uniqueId("s") } }).catch((err: unknown) => err);
    expect((elsewhere as StreamableHTTPError).code).toBe(403);
    expect(String((elsewhere as Error).message)).toContain("bound to another session");

    // A token minted for another user's session reads nothing of it.
    const theirs = uniqueId("mcp-theirs");
    await call("POST", `/v1/sessions/${theirs}/messages`, {
      body: { userId: other, messages: [{ role: "user", content: "My PIN hint is the dog" }] },
    });
    const stray = await connect(await mint({ userId: user, sessionId: theirs, scopes: ["read"] }));
    const stolen = await stray.callTool({ name: "get_context", arguments: {} }).catch((err: unknown) => err);
    expect((stolen as StreamableHTTPError).code).toBe(403);
    expect(String((stolen as Error).message)).toContain("belongs to another user");

    const reader = await connect(await mint({ userId: user, scopes: ["read"] }));
    const write = await reader.callTool({ name: "forget", arguments: { factId: "f_0123456789abcdef" } }).catch((err: unknown) => err);
    expect((write as StreamableHTTPError).code).toBe(403);
    expect(String((write as Error).message)).toContain('lacks the \\"write\\" scope');
  });

  it("a read key recalls but cannot remember or forget; a wrong or missing credential is 401", async () => {
    const user = uniqueId("mcp-r");
    await call("POST", `/v1/users/${user}/facts`, { body: { text: "The user lives in Porto" } });
    const reader = await connect("acme-dashboard");
    // The query names the city: this is about who may recall, not how well (the test index embeds by hashing).
    expect((await tool(reader, "recall", { userId: user, query: "does the user live in Porto" })).text).toContain("Porto");
    const refused = await reader.callTool({ name: "remember", arguments: { userId: user, text: "x" } }).catch((err: unknown) => err);
    expect((refused as StreamableHTTPError).code).toBe(403);
    expect(String((refused as Error).message)).toContain("read role");
    expect((await call<{ facts: unknown[] }>("GET", `/v1/users/${user}/facts`)).json.facts).toHaveLength(1);

    for (const bearer of ["wrong-key", null]) {
      const failed = await connect(bearer).catch((err: unknown) => err);
      expect(failed).toBeInstanceOf(StreamableHTTPError);
      expect((failed as StreamableHTTPError).code).toBe(401);
    }
    // Another tenant's key sees nothing of acme's users.
    const globex = await connect("globex-key");
    expect((await tool(globex, "recall", { userId: user, query: "does the user live in Porto" })).text).toMatch(/^No stored memory/);
  });

  it("checks every call of a JSON-RPC batch before any runs, and answers malformed bodies as JSON-RPC errors", async () => {
    const user = uniqueId("mcp-batch");
    const other = uniqueId("mcp-batch-o");
    const token = await mint({ userId: user, scopes: ["read", "write"] });
    const headers = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
    const remember = (id: number, args: Record<string, unknown>) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "remember", arguments: args },
    });
    const batch = await call<{ error: { code: string; message: string } }>("POST", "/mcp", {
      key: token,
      env: ENV,
      headers,
      body: [remember(1, { text: "The user likes kites" }), remember(2, { userId: other, text: "The other user likes kites" })],
    });
    expect(batch.status).toBe(403);
    expect(batch.json.error.message).toBe("remember: this token belongs to another user");
    // The allowed first call did not run either.
    expect((await call<{ facts: unknown[] }>("GET", `/v1/users/${user}/facts`)).json.facts).toEqual([]);
    expect((await call<{ facts: unknown[] }>("GET", `/v1/users/${other}/facts`)).json.facts).toEqual([]);

    const broken = await call<{ jsonrpc: string; error: { code: number } }>("POST", "/mcp", {
      key: token,
      env: ENV,
      headers,
      raw: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.code).toBe(-32700);
    const bad = await call("POST", "/mcp", {
      key: token,
      env: ENV,
      headers: { ...headers, "x-memory-user": "a:b" },
      body: remember(3, { text: "x" }),
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("X-Memory-User".toLowerCase());
  });
});
