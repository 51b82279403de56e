import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Script } from "node:vm";
import { MemoryApiError, createMemoryClient, type ChatStreamEvent } from "@agent-memory/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.ts";
import { REPO_ROOT, runScript, shellEnv, startDevStack, type ScriptRun } from "./dev-process.ts";

// The typed client and the examples against `npm run dev`, as a person runs them, with the fake
// OpenAI-compatible server as the stack's LLM (OPENAI_BASE_URL).

const STARTS = 240_000;
let fake: FakeOpenAI;
let stack: ScriptRun;
let dataDir: string;
let base: string;
/** The browser example's port: `npm run dev` allows its origin by default (CORS_ORIGINS). */
let examplePort: number;

beforeAll(async () => {
  fake = await startFakeOpenAI({ port: 0 });
  dataDir = await mkdtemp(join(tmpdir(), "agent-memory-examples-"));
  ({ run: stack, base, examplePort } = await startDevStack(dataDir, { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: "fake-key" }));
}, STARTS);

afterAll(async () => {
  if (stack) {
    stack.child.kill("SIGTERM");
    await stack.exited;
  }
  await fake?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

interface Finished {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** Runs an example as `npm run example:*` does (`node --import tsx <script>`, the client from its source), feeding `input` on stdin, until it exits. */
function runExample(script: string, env: Record<string, string>, input = ""): Promise<Finished> {
  const child = spawn(process.execPath, ["--conditions=agent-memory-source", "--import", "tsx", script], {
    cwd: REPO_ROOT,
    env: shellEnv(env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdin.end(input);
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      clearTimeout(killer);
      resolve({ code: code ?? signal ?? -1, stdout, stderr });
    }),
  );
}

describe("the typed client against npm run dev", () => {
  it("appends, reads the context, manages facts and chats, streamed and not", { timeout: 60_000 }, async () => {
    const memory = createMemoryClient({ baseUrl: base, apiKey: "dev-key" });
    const appended = await memory.append(
      "client-trip",
      [
        { id: "sys", role: "system", content: "You are a travel assistant." },
        { id: "m1", role: "user", content: "We fly to Porto on Friday." },
      ],
      { userId: "ada" },
    );
    expect(appended).toMatchObject({ sessionId: "client-trip", stats: { messages: 2 } });

    const context = await memory.context("client-trip", { query: "when do we fly?", userId: "ada", k: 3 });
    expect(context.messages).toEqual([
      { role: "system", content: "You are a travel assistant." },
      { role: "user", content: "We fly to Porto on Friday." },
    ]);

    const facts = memory.facts("ada");
    const added = await facts.add({ text: "Likes window seats", type: "preference", importance: 0.7 });
    expect(added).toMatchObject({ created: true, fact: { text: "Likes window seats", type: "preference" } });
    const id = added.id;
    expect(await facts.add({ text: "Likes window seats" })).toMatchObject({ id, created: false });
    const recalled = await facts.recall("window seats", { k: 10, minScore: 0 });
    expect(recalled.facts.map((f) => f.id)).toContain(id);
    expect(recalled.facts[0]?.score).toBeGreaterThan(0);
    const listed = await facts.list({ limit: 100, types: ["preference"] });
    expect(listed.facts.map((f) => f.id)).toEqual([id]);
    expect(listed.nextCursor).toBeNull();
    expect(await facts.update(id, { importance: 0.9 })).toMatchObject({ id, importance: 0.9 });
    expect(await facts.get(id)).toMatchObject({ id, text: "Likes window seats", importance: 0.9 });
    expect(await facts.delete(id)).toEqual({ userId: "ada", id, deleted: 1 });
    const gone = await facts.get(id).catch((err: unknown) => err);
    expect(gone).toBeInstanceOf(MemoryApiError);
    expect(gone).toMatchObject({ status: 404 });

    // The fake LLM answers with the last user message.
    const answer = await memory.chat("client-trip", { message: "Is Porto sunny?", messageId: "c1", userId: "ada" });
    expect(answer).toMatchObject({ reply: { role: "assistant", content: "Is Porto sunny?" } });

    const events: ChatStreamEvent[] = [];
    for await (const event of memory.chatStream("client-trip", { message: "What should I pack for rain?", messageId: "c2" }))
      events.push(event);
    const deltas = events.filter((e) => e.type === "delta").map((e) => e.content);
    const done = events.at(-1);
    expect(deltas.length).toBeGreaterThan(1);
    expect(done).toMatchObject({ type: "done", reply: { role: "assistant", content: "What should I pack for rain?" } });
    expect(deltas.join("")).toBe("What should I pack for rain?");

    const after = await memory.context("client-trip");
    expect(after.messages.map((m) => m.content)).toEqual([
      "You are a travel assistant.",
      "We fly to Porto on Friday.",
      "Is Porto sunny?",
      "Is Porto sunny?",
      "What should I pack for rain?",
      "What should I pack for rain?",
    ]);
  });

  it("says what the service answered when a request is refused", async () => {
    const stranger = createMemoryClient({ baseUrl: base, apiKey: "not-a-key" });
    const refused = await stranger.context("client-trip").catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(MemoryApiError);
    expect(refused).toMatchObject({ status: 401 });
    const memory = createMemoryClient({ baseUrl: base, apiKey: "dev-key" });
    const invalid = await memory.append("client-trip", [{ role: "user", content: "" }]).catch((err: unknown) => err);
    expect(invalid).toMatchObject({ status: 400, code: "validation_failed" });
  });
});

describe("the examples against npm run dev", () => {
  it("client-quickstart appends, stores facts and reads the context", { timeout: 90_000 }, async () => {
    const run = await runExample("examples/client-quickstart.ts", { AGENT_MEMORY_URL: base });
    expect(run.code, run.stderr).toBe(0);
    const line = (label: string): Record<string, unknown> => {
      const found = run.stdout.split("\n").find((l) => l.startsWith(`${label}: `));
      expect(found, `${label} line in:\n${run.stdout}`).toBeDefined();
      return JSON.parse((found as string).slice(label.length + 2)) as Record<string, unknown>;
    };
    expect(line("appended")).toMatchObject({ stats: { messages: 3 } });
    expect(line("fact added")).toMatchObject({ fact: { text: "Prefers green tea over coffee" } });
    expect(line("recalled")).toHaveProperty("facts");
    expect((line("context").messages as unknown[])[0]).toEqual({ role: "system", content: "You are a concise travel assistant." });
    const texts = (line("facts").facts as { text: string }[]).map((f) => f.text);
    expect(texts).toEqual(expect.arrayContaining(["Prefers green tea over coffee", "Is allergic to peanuts"]));
  });

  it("openai-chat talks through the proxy with the openai SDK, and memory keeps the turns", { timeout: 90_000 }, async () => {
    fake.clearRequests();
    const run = await runExample(
      "examples/openai-chat.ts",
      { AGENT_MEMORY_URL: base, SESSION: "sdk-chat", USER_ID: "grace" },
      "My name is Grace\n\nI like sailing\n/exit\n",
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("assistant> My name is Grace\n");
    expect(run.stdout).toContain("assistant> I like sailing\n");
    // The second turn sent only its new message; the LLM still saw the first one, from memory.
    const chats = fake.requests().filter((r) => r.path.endsWith("/chat/completions"));
    const last = chats.at(-1)?.body as { messages: { content: string }[] };
    expect(JSON.stringify(last.messages)).toContain("My name is Grace");
    const memory = createMemoryClient({ baseUrl: base, apiKey: "dev-key" });
    const session = await memory.api.GET("/v1/sessions/{sessionId}", { params: { path: { sessionId: "sdk-chat" } } });
    expect(session.data).toMatchObject({ exists: true, stats: { messages: 5 } });
  });

  it("browser-chat keeps the key on its server: it mints a token the page uses cross-origin for its user only", {
    timeout: 60_000,
  }, async () => {
    const server = runScript("examples/browser-chat/serve.ts", [], shellEnv({ AGENT_MEMORY_URL: base, EXAMPLE_PORT: String(examplePort) }));
    try {
      let url: string | undefined;
      for (let i = 0; i < 200 && url === undefined; i++) {
        url = /browser chat: (http:\/\/\S+\/)/.exec(server.output())?.[1];
        if (url === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(url, server.output()).toBe(`http://127.0.0.1:${examplePort}/`);
      const origin = `http://127.0.0.1:${examplePort}`;
      const page = await fetch(url as string);
      expect(page.headers.get("content-type")).toMatch(/text\/html/);
      const html = await page.text();
      expect(html).not.toMatch(/https?:\/\/|\/\/[a-z0-9.-]+\.[a-z]{2,}\//i);
      const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1] as string);
      expect(scripts).toEqual(["/chat.js"]);
      const script = await fetch(new URL("/chat.js", url));
      expect(script.headers.get("content-type")).toMatch(/javascript/);
      const source = await script.text();
      expect(() => new Script(source, { filename: "chat.js" })).not.toThrow();
      for (const [, id] of source.matchAll(/\$\("([^"]+)"\)/g)) expect(html, `element #${id}`).toContain(`id="${id}"`);
      expect(html + source).not.toContain("dev-key");
      // The proxy is gone: the page's server answers nothing under /v1.
      expect((await fetch(new URL("/v1/sessions/browser-test/context", url))).status).toBe(404);

      // The dev stack lets the page's origin in (a preflight before any credential).
      const preflight = await fetch(`${base}/v1/sessions/browser-test/chat`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
      });
      expect(preflight.status).toBeLessThan(300);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
      expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
      const elsewhere = await fetch(`${base}/v1/sessions/browser-test/chat`, {
        method: "OPTIONS",
        headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
      });
      expect(elsewhere.headers.get("access-control-allow-origin")).toBeNull();

      // What the page's token() does.
      const minted = await fetch(new URL("/token", url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userId: "browser-user", sessionId: "browser-test" }),
      });
      expect(minted.status).toBe(200);
      const { token, expiresAt, apiBase } = (await minted.json()) as { token: string; expiresAt: number; apiBase: string };
      expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(apiBase).toBe(base);
      expect(expiresAt).toBeGreaterThan(Date.now());
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 300_000 + 1000);
      expect((await fetch(new URL("/token", url), { method: "POST", body: "{}" })).status).toBe(400);

      // What the page's send() does: straight to the API, cross-origin, with the token.
      const bearer = { authorization: `Bearer ${token}`, "content-type": "application/json", origin };
      const turn = await fetch(`${base}/v1/sessions/browser-test/chat`, {
        method: "POST",
        headers: bearer,
        body: JSON.stringify({ message: "Hello from the page", userId: "browser-user", stream: true }),
      });
      expect(turn.status).toBe(200);
      expect(turn.headers.get("access-control-allow-origin")).toBe(origin);
      expect(turn.headers.get("content-type")).toMatch(/text\/event-stream/);
      const stream = await turn.text();
      expect(stream).toContain("event: delta");
      expect(stream).toMatch(/event: done\ndata: \{"reply":\{"id":"[^"]+","role":"assistant","content":"Hello from the page"\}/);
      // What showContext() does: the turn is in the session's window.
      const context = await fetch(`${base}/v1/sessions/browser-test/context`, { headers: bearer });
      expect(context.status).toBe(200);
      expect(((await context.json()) as { messages: { content: string }[] }).messages.map((m) => m.content)).toEqual([
        "Hello from the page",
        "Hello from the page",
      ]);

      // The token reaches nothing of another user or session, and none of the tenant's own routes.
      for (const path of ["/v1/users/someone-else/facts", "/v1/sessions/other-session/context", "/v1/users/browser-user/export"]) {
        const refused = await fetch(`${base}${path}`, { headers: bearer });
        expect(refused.status, path).toBe(403);
      }
      const otherUser = await fetch(`${base}/v1/sessions/browser-test/chat`, {
        method: "POST",
        headers: bearer,
        body: JSON.stringify({ message: "As someone else", userId: "someone-else" }),
      });
      expect(otherUser.status).toBe(403);
      // Minted without `write`: the page cannot store facts even for its own user.
      const write = await fetch(`${base}/v1/users/browser-user/facts`, {
        method: "POST",
        headers: bearer,
        body: JSON.stringify({ text: "Likes tea" }),
      });
      expect(write.status).toBe(403);
      expect(server.output()).not.toContain("warning");
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });
});
