import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createMemoryClient } from "@agent-memory/client";
import { memoryMiddleware } from "@agent-memory/client/ai-sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { generateText, simulateReadableStream, streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, shellEnv, startDevStack, type ScriptRun } from "./dev-process.ts";

// What the README's "Connect your app" promises, against `npm run dev`: the packed client installed
// into a project outside the repository, the AI SDK middleware, and the MCP server.

const run = promisify(execFile);
const STARTS = 240_000;
let stack: ScriptRun;
let dataDir: string;
let scratch: string;
let base: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-memory-connect-"));
  scratch = await mkdtemp(join(tmpdir(), "agent-memory-client-install-"));
  ({ run: stack, base } = await startDevStack(dataDir));
}, STARTS);

afterAll(async () => {
  if (stack) {
    stack.child.kill("SIGTERM");
    await stack.exited;
  }
  for (const dir of [dataDir, scratch]) if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

const unique = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) {
      expect(done(value), what).toBe(true);
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the packed client in a plain Node 20 project", () => {
  it("npm pack builds JavaScript and types; the tarball installs outside the repo, imports with plain node and calls the API", {
    timeout: 240_000,
  }, async () => {
    const packed = await run("npm", ["pack", "--json", "--pack-destination", scratch], {
      cwd: join(REPO_ROOT, "client"),
      maxBuffer: 16 << 20,
    });
    const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as [{ filename: string; files: { path: string }[] }];
    const files = info.files.map((f) => f.path);
    expect(files).toContain("dist/index.js");
    expect(files).toContain("dist/index.d.ts");
    expect(files).toContain("dist/ai-sdk.js");
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);

    const app = join(scratch, "app");
    await run("mkdir", ["-p", app]);
    await writeFile(join(app, "package.json"), JSON.stringify({ name: "plain-app", version: "1.0.0", private: true, type: "module" }));
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(scratch, info.filename)], {
      cwd: app,
      maxBuffer: 16 << 20,
    });
    expect(await readdir(join(app, "node_modules", "@agent-memory", "client", "dist"))).toContain("index.js");

    const user = unique("packed-user");
    await writeFile(
      join(app, "smoke.mjs"),
      `import { createMemoryClient, MemoryApiError } from "@agent-memory/client";
import { memoryMiddleware } from "@agent-memory/client/ai-sdk";
const memory = createMemoryClient({ baseUrl: process.argv[2], apiKey: "dev-key" });
const added = await memory.facts(${JSON.stringify(user)}).add({ text: "Keeps bees on the roof", type: "fact" });
const recalled = await memory.facts(${JSON.stringify(user)}).recall("bees");
let refused = null;
try { await createMemoryClient({ baseUrl: process.argv[2], apiKey: "wrong" }).facts("x").list(); } catch (err) { refused = err instanceof MemoryApiError ? err.status : String(err); }
console.log(JSON.stringify({ created: added.created, recalled: recalled.facts.map((f) => f.text), refused, middleware: typeof memoryMiddleware }));
`,
    );
    // Plain node: no TypeScript loader, no `ai` installed (the middleware only needs it for types).
    const smoke = await run(process.execPath, ["smoke.mjs", base], { cwd: app, env: shellEnv({}) });
    expect(JSON.parse(smoke.stdout.trim())).toEqual({
      created: true,
      recalled: ["Keeps bees on the roof"],
      refused: 401,
      middleware: "function",
    });

    // A consumer's TypeScript resolves the published types.
    await writeFile(
      join(app, "check.ts"),
      `import { createMemoryClient, type FactRecall } from "@agent-memory/client";\nconst r: Promise<FactRecall> = createMemoryClient({ baseUrl: "x" }).facts("u").recall("q");\nvoid r;\n`,
    );
    const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    const typed = await run(
      process.execPath,
      [
        tsc,
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "--lib",
        "es2022,dom",
        "check.ts",
      ],
      { cwd: app },
    ).catch((err: { stdout: string }) => ({ stdout: err.stdout, failed: true }));
    expect(typed.stdout).toBe("");

    // A browser bundle: no Node built-ins, and it runs where fetch exists.
    await writeFile(
      join(app, "browser.mjs"),
      `import { createMemoryClient } from "@agent-memory/client";\nconst m = createMemoryClient({ baseUrl: globalThis.MEMORY_URL, apiKey: "dev-key" });\nglobalThis.result = m.facts(${JSON.stringify(user)}).list();\n`,
    );
    const bundle = await build({
      entryPoints: [join(app, "browser.mjs")],
      bundle: true,
      platform: "browser",
      format: "iife",
      write: false,
      absWorkingDir: app,
      logLevel: "silent",
    });
    const code = bundle.outputFiles[0]!.text;
    expect(code).not.toMatch(/require\(["']node:|from ["']node:/);
    const global = globalThis as { MEMORY_URL?: string; result?: Promise<unknown> };
    global.MEMORY_URL = base;
    new Function(code)();
    const page = (await global.result) as { facts: { text: string }[] };
    delete global.MEMORY_URL;
    delete global.result;
    expect(page.facts.map((f) => f.text)).toEqual(["Keeps bees on the roof"]);
  });
});

type Prompt = Parameters<MockLanguageModelV3["doGenerate"]>[0]["prompt"];
const usage = { inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 3, text: 3, reasoning: 0 } };
const systemTexts = (prompt: Prompt): string[] => prompt.flatMap((m) => (m.role === "system" ? [m.content] : []));

/** A fake model that records its prompts: a fixed reply, generated or streamed in pieces. */
function fakeModel(reply: string) {
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: "text", text: reply }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    }),
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "text-start", id: "t" },
          ...reply.split(/(?<= )/).map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        ],
      }),
    }),
  });
}

describe("the AI SDK middleware", () => {
  it("generateText stores the turn; streamText in a new session recalls it into the prompt and stores its own turn", {
    timeout: 60_000,
  }, async () => {
    const client = createMemoryClient({ baseUrl: base, apiKey: "dev-key" });
    const userId = unique("sdk-user");
    const [first, second] = [unique("sdk-a"), unique("sdk-b")];

    const model1 = fakeModel("Lovely, I will keep that in mind.");
    const answer = await generateText({
      model: wrapLanguageModel({ model: model1, middleware: memoryMiddleware({ client, sessionId: first, userId }) }),
      system: "You are a helpful assistant.",
      prompt: "I love drawing horses with my daughter Lily, she is 7.",
    });
    expect(answer.text).toBe("Lovely, I will keep that in mind.");
    // Nothing was known yet: the prompt went to the model as the app wrote it.
    expect(systemTexts(model1.doGenerateCalls[0]!.prompt)).toEqual(["You are a helpful assistant."]);
    const stored = await client.context(first, { userId });
    expect(stored.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "I love drawing horses with my daughter Lily, she is 7."],
      ["assistant", "Lovely, I will keep that in mind."],
    ]);
    // The service learns the fact from the stored turn in the background.
    await eventually(
      () => client.facts(userId).recall("Lily drawing horses"),
      (r) => r.facts.some((f) => /Lily/.test(f.text)),
      "a fact about Lily is learned",
    );

    const model2 = fakeModel("How about a set of horse stencils?");
    const streamed = streamText({
      model: wrapLanguageModel({ model: model2, middleware: memoryMiddleware({ client, userId }) }),
      system: "You are a helpful assistant.",
      prompt: "What could I give Lily for her birthday? She loves drawing horses.",
      // The session per call, as a server handling many conversations passes it.
      providerOptions: { agentMemory: { sessionId: second } },
    });
    let text = "";
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe("How about a set of horse stencils?");
    const systems = systemTexts(model2.doStreamCalls[0]!.prompt);
    expect(systems[0]).toBe("You are a helpful assistant.");
    expect(systems[1]).toMatch(/^Relevant memories about the user[\s\S]*Lily/);
    const secondStored = await client.context(second, { userId });
    expect(secondStored.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "What could I give Lily for her birthday? She loves drawing horses."],
      ["assistant", "How about a set of horse stencils?"],
    ]);
  });

  it("persist: false stores nothing, recall: false adds nothing, and a memory service that is down does not fail the call", {
    timeout: 60_000,
  }, async () => {
    const client = createMemoryClient({ baseUrl: base, apiKey: "dev-key" });
    const userId = unique("sdk-quiet");
    const sessionId = unique("sdk-q");
    await client.facts(userId).add({ text: "Lily loves drawing horses" });
    const model = fakeModel("Sure.");
    await generateText({
      model: wrapLanguageModel({ model, middleware: memoryMiddleware({ client, sessionId, userId, persist: false, recall: false }) }),
      prompt: "Tell me about Lily and horses",
    });
    expect(systemTexts(model.doGenerateCalls[0]!.prompt)).toEqual([]);
    expect((await client.context(sessionId)).messages).toEqual([]);

    const problems: string[] = [];
    const down = createMemoryClient({ baseUrl: "http://127.0.0.1:9", apiKey: "dev-key" });
    const offline = fakeModel("Still here.");
    const result = await generateText({
      model: wrapLanguageModel({
        model: offline,
        middleware: memoryMiddleware({ client: down, sessionId, userId, onError: (_err, stage) => problems.push(stage) }),
      }),
      prompt: "Tell me about Lily and horses",
    });
    expect(result.text).toBe("Still here.");
    expect(problems).toEqual(["recall", "store"]);
  });
  it("examples/ai-sdk-memory.ts runs as npm run example:ai-sdk runs it", { timeout: 90_000 }, async () => {
    const example = await run(process.execPath, ["--conditions=agent-memory-source", "--import", "tsx", "examples/ai-sdk-memory.ts"], {
      cwd: REPO_ROOT,
      env: shellEnv({ AGENT_MEMORY_URL: base }),
    });
    expect(example.stdout).toContain("first conversation: Nice to meet you!");
    expect(example.stdout).toMatch(/second conversation: From memory: Relevant memories about the user[^\n]*Lily/);
    expect(example.stdout).toContain("stored turns of the second conversation: 2 messages");
  });
});

describe("the MCP server over HTTP", () => {
  it("the official client connects to /mcp of npm run dev with the dev key, remembers and recalls", { timeout: 60_000 }, async () => {
    const userId = unique("mcp-dev");
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: "Bearer dev-key", "x-memory-user": userId } },
    });
    const mcp = new Client({ name: "dev-check", version: "1.0.0" });
    await mcp.connect(transport);
    try {
      expect((await mcp.listTools()).tools.map((t) => t.name)).toContain("recall");
      const stored = (await mcp.callTool({ name: "remember", arguments: { text: "The user sails on weekends" } })) as CallToolResult;
      expect(stored.isError).toBeFalsy();
      const recalled = (await mcp.callTool({ name: "recall", arguments: { query: "sails weekends" } })) as CallToolResult;
      expect((recalled.content[0] as { text: string }).text).toContain("sails on weekends");
    } finally {
      await mcp.close();
    }
  });
});
