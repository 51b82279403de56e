import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import worker from "../../../src/index.ts";
import type { Bindings } from "../../../src/worker/env.ts";
import { addFact } from "../support/facts.ts";
import { call, clearFault, injectFault, uniqueId } from "../support/helpers.ts";
import { resetLlm, scriptLlm } from "../support/llm.ts";
import { memoryClient } from "../support/openai.ts";

/**
 * What the MCP tools answer, read with the official client (which checks every
 * `structuredContent` against the tool's declared `outputSchema`): structured results, argument
 * errors in the REST API's words, metadata filters held to the REST rule, upstream failures
 * without upstream text, superseded memories marked.
 */

const workerFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env as unknown as Bindings, ctx);
  const body = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(response.status === 202 || response.status === 204 ? null : body, {
    status: response.status,
    headers: response.headers,
  });
};

const open: Client[] = [];

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("http://agent-memory.test/mcp"), {
    fetch: workerFetch,
    requestInit: { headers: { authorization: "Bearer acme-key", ...headers } },
  });
  const client = new Client({ name: "mcp-results", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(transport);
  open.push(client);
  return client;
}

beforeEach(resetLlm);
afterEach(async () => {
  await clearFault("vector");
  await resetLlm();
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function tool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  return { text, isError: result.isError === true, structured: result.structuredContent as Record<string, unknown> | undefined };
}

/** Memories as the structured results carry them. */
interface Memory {
  id: string;
  text: string;
  type: string;
  importance: number;
  createdAt: number;
  score?: number;
  supersededAt?: number;
  supersededBy?: string;
}

const memoriesOf = (structured: Record<string, unknown> | undefined): Memory[] => (structured?.memories ?? []) as Memory[];

const MCP_HEADERS = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
/** A tool call sent as raw JSON, so keys such as `__proto__` reach the server as they were written. */
async function rawCall(name: string, argumentsJson: string): Promise<{ text: string; isError: boolean; structured: unknown }> {
  const raw = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${argumentsJson}}}`;
  const res = await call<{ result: CallToolResult }>("POST", "/mcp", { headers: MCP_HEADERS, raw });
  expect(res.status, res.text).toBe(200);
  const result = res.json.result;
  return { text: (result.content[0] as { text: string }).text, isError: result.isError === true, structured: result.structuredContent };
}

/** No SDK prefix, no zod issue JSON, no store or upstream wording. */
const expectPlainError = (text: string) => {
  expect(text).not.toMatch(/MCP error|Input validation|Invalid arguments for tool|\[\s*\{|"code"|not allowed \(bad_request\)/);
};

describe("structured tool results", () => {
  it("every tool declares an output schema, and each answer carries ids a program reads without parsing text", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    for (const t of tools) expect(t.outputSchema?.type, t.name).toBe("object");
    expect(Object.keys(tools.find((t) => t.name === "recall")!.outputSchema?.properties ?? {}).sort()).toEqual(["memories", "userId"]);

    const user = uniqueId("mcp-sc");
    const stored = await tool(client, "remember", { userId: user, text: "The user grows tomatoes on the balcony", importance: 0.7 });
    expect(stored.isError, stored.text).toBe(false);
    expect(stored.structured).toEqual({
      id: expect.any(String),
      text: "The user grows tomatoes on the balcony",
      type: "fact",
      importance: 0.7,
      created: true,
    });
    const id = stored.structured!.id as string;
    expect(stored.text).toContain(id);
    const again = await tool(client, "remember", { userId: user, text: "The user grows tomatoes on the balcony" });
    expect(again.structured).toMatchObject({ id, created: false });
    const second = await tool(client, "remember", { userId: user, text: "The user prefers oolong tea", type: "preference" });

    const recalled = await tool(client, "recall", { userId: user, query: "does the user grow tomatoes", k: 1 });
    expect(recalled.structured?.userId).toBe(user);
    const [best] = memoriesOf(recalled.structured);
    expect(best).toMatchObject({ id, type: "fact", importance: 0.7, createdAt: expect.any(Number) });
    // Timestamps as on the REST API: epoch ms.
    const rest = await call<{ createdAt: number }>("GET", `/v1/users/${user}/facts/${id}`);
    expect(best!.createdAt).toBe(rest.json.createdAt);
    expect(best!.score).toBeGreaterThan(0);
    expect(best!.supersededAt).toBeUndefined();

    const page = await tool(client, "list_memories", { userId: user, limit: 1 });
    const cursor = page.structured?.nextCursor as string;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(memoriesOf(page.structured).map((m) => m.id)).toEqual([id]);
    const last = await tool(client, "list_memories", { userId: user, cursor });
    expect(last.structured).toMatchObject({ userId: user, nextCursor: null });
    expect(memoriesOf(last.structured).map((m) => m.id)).toEqual([second.structured!.id]);

    const forgot = await tool(client, "forget", { userId: user, factId: id });
    expect(forgot.structured).toEqual({ id, deleted: true });
    const gone = await tool(client, "forget", { userId: user, factId: id });
    expect(gone.isError).toBe(true);
    expect(gone.structured).toBeUndefined();
  });

  it("get_context answers its session, token count, degraded parts, memories and messages", async () => {
    const user = uniqueId("mcp-cx");
    const sid = uniqueId("mcp-cx-s");
    await call("POST", `/v1/sessions/${sid}/messages`, {
      body: { userId: user, messages: [{ role: "user", content: "We are repainting the kitchen green" }] },
    });
    const client = await connect({ "x-memory-user": user, "x-memory-session": sid });
    const fact = await tool(client, "remember", { text: "The user is repainting the kitchen" });
    const context = await tool(client, "get_context", { query: "what is the user repainting" });
    expect(context.isError, context.text).toBe(false);
    expect(context.structured).toMatchObject({
      sessionId: sid,
      tokens: expect.any(Number),
      degraded: [],
      messages: expect.arrayContaining([{ role: "user", content: "We are repainting the kitchen green" }]),
    });
    expect(memoriesOf(context.structured).map((m) => m.id)).toContain(fact.structured!.id);
  });
});

describe("argument errors", () => {
  it("read like the REST API's messages: the argument and the rule, no SDK or zod text", async () => {
    const client = await connect();
    const user = uniqueId("mcp-err");
    const cases: [string, Record<string, unknown>, string][] = [
      ["recall", { userId: user, query: "x", k: 500 }, "invalid arguments: k must be <= 50"],
      ["remember", { userId: user, text: "x", colour: "red" }, "invalid arguments: colour is not a known field"],
      ["recall", { userId: user, query: "x", metadata: { "a.b": "c" } }, 'invalid arguments: metadata "a.b" names an invalid metadata key'],
      [
        "recall",
        { userId: user, query: "x", metadata: { topic: "a\\b" } },
        'invalid arguments: metadata "topic" must not hold a backslash',
      ],
      ["list_memories", { userId: user, metadata: { topic: 3 } }, 'invalid arguments: metadata "topic" must be a string'],
      ["recall", { userId: "a:b", query: "x" }, "invalid arguments: userId must be 1-128 characters"],
      ["nope", {}, "unknown tool: call one of remember, recall, forget, list_memories, get_context"],
    ];
    for (const [name, args, expected] of cases) {
      const answer = await tool(client, name, args);
      expect(answer.isError, name).toBe(true);
      expect(answer.text.startsWith(expected), `${answer.text} / ${expected}`).toBe(true);
      expect(answer.structured).toBeUndefined();
      expectPlainError(answer.text);
    }
  });

  it("a tools/call the SDK cannot read is a JSON-RPC error in plain words, and runs nothing", async () => {
    const user = uniqueId("mcp-params");
    for (const [params, expected] of [
      [`{"name":"remember","arguments":"userId=${user}"}`, "invalid tools/call: params.arguments must be a record"],
      [`{"name":5,"arguments":{"userId":"${user}","text":"x"}}`, "invalid tools/call: params.name must be a string"],
    ] as const) {
      const res = await call<{ id: number; error: { code: number; message: string } }>("POST", "/mcp", {
        headers: MCP_HEADERS,
        raw: `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":{"userId":"${user}","text":"The user flies kites"}}},{"jsonrpc":"2.0","id":7,"method":"tools/call","params":${params}}]`,
      });
      expect(res.status, res.text).toBe(400);
      expect(res.json).toMatchObject({ id: 7, error: { code: -32602, message: expected } });
    }
    expect((await call<{ facts: unknown[] }>("GET", `/v1/users/${user}/facts`)).json.facts).toEqual([]);
  });

  it("a metadata filter key __proto__ is refused, never dropped into an unfiltered search", async () => {
    const user = uniqueId("mcp-proto");
    await addFact(user, { text: "The user keeps a diary", metadata: { topic: "habits" } });
    for (const [name, args] of [
      ["recall", `{"userId":"${user}","query":"does the user keep a diary","metadata":{"__proto__":"x"}}`],
      ["list_memories", `{"userId":"${user}","metadata":{"__proto__":"x"}}`],
      ["list_memories", `{"userId":"${user}","metadata":{"topic":"habits","__proto__":"x"}}`],
    ] as const) {
      const answer = await rawCall(name, args);
      expect(answer.isError, answer.text).toBe(true);
      expect(answer.text).toContain('metadata "__proto__" names an invalid metadata key');
      expect(answer.text).not.toContain("diary");
      expect(answer.structured).toBeUndefined();
    }
    // Anywhere else in the arguments too: the stored metadata would lose it without a word.
    const stored = await rawCall("remember", `{"userId":"${user}","text":"The user writes daily","metadata":{"__proto__":{"a":1}}}`);
    expect(stored).toMatchObject({ isError: true, text: "invalid arguments: metadata.__proto__ is not an allowed key" });
    const facts = await call<{ facts: { text: string }[] }>("GET", `/v1/users/${user}/facts`);
    expect(facts.json.facts.map((f) => f.text)).toEqual(["The user keeps a diary"]);
    // The REST route refuses the same filter.
    expect((await call("GET", `/v1/users/${user}/facts?metadata.__proto__=x`)).status).toBe(400);
  });

  it("a key named like a member of every object is refused, on /mcp as on REST", async () => {
    const user = uniqueId("mcp-ctor");
    await addFact(user, { text: "The user bakes bread on Sundays" });
    const client = await connect();
    for (const key of ["constructor", "toString", "hasOwnProperty"]) {
      const listed = await tool(client, "list_memories", { userId: user, metadata: { [key]: "rye" } });
      expect(listed.isError, key).toBe(true);
      expect(listed.text).toBe(
        `invalid arguments: metadata "${key}" names a reserved metadata key (a built-in object member such as constructor or toString)`,
      );
      expect((await call("GET", `/v1/users/${user}/facts?metadata.${key}=rye`)).status).toBe(400);
    }
  });

  it("an upstream failure says to retry, without the store's text", async () => {
    const client = await connect();
    const user = uniqueId("mcp-down");
    await injectFault("vector", { mode: "error", count: 20 });
    const answer = await tool(client, "recall", { userId: user, query: "anything at all" });
    expect(answer).toEqual({ isError: true, text: "memory store unavailable, retry in a few seconds", structured: undefined });
  });
});

describe("superseded memories", () => {
  it("list_memories marks a superseded memory with when and by which, in text and structured content", async () => {
    const user = uniqueId("mcp-sup");
    const paris = await addFact(user, { text: "The user lives in Paris.", importance: 0.9 });
    await scriptLlm("You maintain the long-term memory", [
      {
        text: JSON.stringify({
          operations: [{ op: "supersede", memory: paris.id, text: "The user lives in Berlin.", type: "fact", importance: 0.9 }],
        }),
      },
    ]);
    const { openai, drain } = memoryClient(uniqueId("mcp-sup-s"), user, { env: { FACT_EXTRACTION: "llm" } });
    await openai.chat.completions.create({ model: "fake-model", messages: [{ role: "user", content: "I moved to Berlin last week." }] });
    await drain();

    const client = await connect();
    const listed = await tool(client, "list_memories", { userId: user });
    const memories = memoriesOf(listed.structured);
    const berlin = memories.find((m) => m.text === "The user lives in Berlin.")!;
    const old = memories.find((m) => m.id === paris.id)!;
    expect(old).toMatchObject({ supersededAt: expect.any(Number), supersededBy: berlin.id });
    expect(berlin.supersededAt).toBeUndefined();
    const day = new Date(old.supersededAt!).toISOString().slice(0, 10);
    const lines = listed.text.split("\n");
    expect(lines.find((l) => l.startsWith(`- ${paris.id} `))).toMatch(new RegExp(`\\(superseded ${day} by ${berlin.id}\\)$`));
    expect(lines.find((l) => l.startsWith(`- ${berlin.id} `))).not.toContain("superseded");

    const current = memoriesOf((await tool(client, "list_memories", { userId: user, current: true })).structured);
    expect(current.map((m) => m.id)).toContain(berlin.id);
    expect(current.map((m) => m.id)).not.toContain(paris.id);
  });
});
