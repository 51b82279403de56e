import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.ts";
import { freePorts, runScript, shellEnv, stopLeftovers, waitForOk } from "../dev/dev-process.ts";

/** How long a poll waits for the page: the first turn of a freshly started dev stack is a cold request. */
const UI_WAIT = { timeout: 15_000 };

// The browser chat example in a real headless Chromium: `npm run dev` (with the fake LLM) and
// `npm run example:browser` as a person starts them, no variable but the ports; one message sent.

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let fake: FakeOpenAI;
let dataDir = "";
let base = "";
let pageUrl = "";
let browser: Browser;

beforeAll(async () => {
  fake = await startFakeOpenAI({ port: 0 });
  dataDir = await mkdtemp(join(tmpdir(), "agent-memory-browser-chat-"));
  const [port, redisPort, vectorPort, inspectorPort, examplePort] = (await freePorts(5)) as [number, number, number, number, number];
  const ports = { EXAMPLE_PORT: String(examplePort) };
  const stack = runScript(
    "scripts/dev.ts",
    [],
    shellEnv({
      ...ports,
      PORT: String(port),
      UPSTASH_LOCAL_REDIS_PORT: String(redisPort),
      UPSTASH_LOCAL_VECTOR_PORT: String(vectorPort),
      INSPECTOR_PORT: String(inspectorPort),
      DEV_DATA_DIR: dataDir,
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_API_KEY: "fake-key",
    }),
  );
  base = `http://127.0.0.1:${port}`;
  if (!(await waitForOk(`${base}/healthz`, stack))) throw new Error(`npm run dev did not serve /healthz:\n${stack.output()}`);
  const example = runScript("examples/browser-chat/serve.ts", [], shellEnv({ ...ports, AGENT_MEMORY_URL: base }));
  pageUrl = `http://127.0.0.1:${examplePort}/`;
  if (!(await waitForOk(pageUrl, example))) throw new Error(`the example did not serve its page:\n${example.output()}`);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stopLeftovers();
  await fake?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe("examples/browser-chat", () => {
  it("streams a reply from the API called cross-origin with a token, and mints a new token before the old one expires", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") problems.push(`${msg.type()}: ${msg.text()}`);
    });
    page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
    page.on("requestfailed", (req) => problems.push(`request failed: ${req.url()}`));
    const requests: { url: string; method: string; authorization: string | undefined }[] = [];
    page.on("request", (req) => requests.push({ url: req.url(), method: req.method(), authorization: req.headers().authorization }));
    // The page's clock only: the API still checks tokens against real time.
    await page.clock.install();

    await page.goto(`${pageUrl}?say=${encodeURIComponent("Hello from Chromium")}`);
    await expect
      .poll(() => page.locator(".turn.meta").allTextContents(), UI_WAIT)
      .toEqual([expect.stringMatching(/^context: 0 message\(s\) stored/), expect.stringMatching(/^memory: \d+ fact\(s\) recalled/)]);
    expect(await page.locator(".turn.user").allTextContents()).toEqual(["Hello from Chromium"]);
    expect(await page.locator(".turn.assistant").allTextContents()).toEqual(["Hello from Chromium"]);
    expect(await page.locator("#expires").textContent()).toMatch(/^token for browser-user \/ browser-chat until /);

    const apiCalls = requests.filter((r) => r.url.startsWith(`${base}/v1/`));
    expect(apiCalls.map((r) => `${r.method} ${r.url.slice(base.length)}`)).toEqual(
      expect.arrayContaining(["GET /v1/sessions/browser-chat/context", "POST /v1/sessions/browser-chat/chat"]),
    );
    const tokens = new Set(apiCalls.filter((r) => r.method !== "OPTIONS").map((r) => r.authorization));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(requests.filter((r) => r.url === new URL("/token", pageUrl).href)).toHaveLength(1);

    // Four minutes later (a token lives five) the next turn gets a new token first.
    await page.clock.fastForward("04:10");
    await page.locator("#message").fill("Still there?");
    await page.locator("#send").click();
    await expect.poll(() => page.locator(".turn.assistant").allTextContents(), UI_WAIT).toEqual(["Hello from Chromium", "Still there?"]);
    expect(requests.filter((r) => r.url === new URL("/token", pageUrl).href)).toHaveLength(2);
    const lastChat = requests.filter((r) => r.method === "POST" && r.url.endsWith("/chat")).at(-1);
    expect(lastChat?.authorization).toMatch(/^Bearer /);
    expect(tokens.has(lastChat?.authorization)).toBe(false);

    expect(requests.some((r) => r.authorization === "Bearer dev-key")).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});
