import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, freePorts, runScript, shellEnv, stopLeftovers, waitForOk, type ScriptRun } from "../dev/dev-process.ts";
import { SESSION3, TURNS, USER, USER2, USER3, seed, seedSuperseded, seedTools, useStack } from "./inspector-seed.ts";

/** How long a poll waits for the page: the first turn of a freshly started dev stack is a cold request. */
const UI_WAIT = { timeout: 15_000 };

// The inspector in a real headless Chromium (Debian's) against `npm run dev` with seeded data:
// the key typed in, the session picked, everything driven from the keyboard.

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const KEY = "dev-key";
/** Where this test writes what it produces (git-ignored). */
const OUTPUT_DIR = join(REPO_ROOT, "test-output", "browser");

let dataDir = "";
let run: ScriptRun;
let base = "";
let browser: Browser;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-memory-inspector-"));
  const [port, redisPort, vectorPort, inspectorPort] = (await freePorts(4)) as [number, number, number, number];
  run = runScript(
    "scripts/dev.ts",
    [],
    shellEnv({
      PORT: String(port),
      UPSTASH_LOCAL_REDIS_PORT: String(redisPort),
      UPSTASH_LOCAL_VECTOR_PORT: String(vectorPort),
      INSPECTOR_PORT: String(inspectorPort),
      DEV_DATA_DIR: dataDir,
    }),
  );
  base = `http://127.0.0.1:${port}`;
  if (!(await waitForOk(`${base}/healthz`, run))) throw new Error(`npm run dev did not serve /healthz:\n${run.output()}`);
  useStack(base);
  await seed();
  await seedTools();
  await seedSuperseded();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stopLeftovers();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** Presses Tab until `selector` has the focus (at most `limit` times): proof it is reachable by keyboard. */
async function tabTo(page: Page, selector: string, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((s) => document.activeElement === document.querySelector(s), selector)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`${selector} never got the focus by Tab`);
}

describe("/inspector", () => {
  it("shows the session's window, summary, facts, budget and traces, operated by keyboard only, without console errors", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    const problems: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") problems.push(`${msg.type()}: ${msg.text()}`);
    });
    page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
    page.on("requestfailed", (req) => problems.push(`request failed: ${req.url()}`));

    const res = await page.goto(`${base}/inspector`);
    expect(res?.status()).toBe(200);
    // Served as a static asset with a policy that allows this origin only (and no inline script).
    expect(res?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await expect.poll(() => page.locator("#key-status").textContent(), UI_WAIT).toBe("no key");

    await tabTo(page, "#api-key");
    await page.keyboard.type(KEY);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#key-status").textContent(), UI_WAIT).toBe("key set for this tab");
    expect(page.url()).not.toContain(KEY);
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([KEY]);

    await tabTo(page, "#user-id");
    await page.keyboard.type(USER);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#session-select option").count(), UI_WAIT).toBe(1);
    await tabTo(page, "#session-form button[type=submit]");
    await page.keyboard.press("Enter");

    await page.locator("#window-panel").waitFor({ state: "visible" });
    // The window: the message appended after the compression and the kept tail, with tokens and importance.
    const windowRows = page.locator("#window tbody tr");
    expect(await windowRows.count()).toBeGreaterThanOrEqual(2);
    await expect.poll(async () => (await windowRows.last().textContent()) ?? "", UI_WAIT).toContain("What should I pack for Porto?");
    const cells = await windowRows.first().locator("td").allTextContents();
    expect(Number(cells[2])).toBeGreaterThan(0);
    expect(Number(cells[3])).toBeGreaterThan(0);

    expect(await page.locator("#system").textContent()).toContain("You are a concise travel assistant.");
    const summary = await page.locator("#summary-meta").textContent();
    expect(summary).toContain("Version1");
    expect(summary).toContain("Methodextractive");
    expect((await page.locator("#summary-text").textContent())?.length).toBeGreaterThan(10);
    expect(await page.locator("#archive tbody tr").count()).toBeGreaterThan(0);

    const facts = await page.locator("#facts tbody tr").allTextContents();
    // the two written facts, and the user's question kept as said (an episode)
    expect(facts).toHaveLength(3);
    expect(facts.join("\n")).toContain("episode");
    expect(facts.join("\n")).toContain("The user prefers green tea");
    expect(facts.join("\n")).toContain("preference");

    // The budget bar has a segment per part in use and a legend with each part's tokens.
    expect(await page.locator("#budget-bar .part-system").count()).toBe(1);
    expect(await page.locator("#budget-bar .part-summary").count()).toBe(1);
    expect(await page.locator("#budget-bar .part-window").count()).toBe(1);
    expect(await page.locator("#budget-bar").getAttribute("aria-label")).toMatch(/^\d+ of \d+ available tokens used/);
    expect(await page.locator("#budget-legend li[data-part]").count()).toBe(4);

    // The recall trace seeded above: open it with the keyboard; its candidates are listed.
    const traceButtons = page.locator("#traces button");
    expect(await traceButtons.count()).toBeGreaterThanOrEqual(1);
    await tabTo(page, "#traces li:last-child button", 60);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#candidates tbody tr").count(), UI_WAIT).toBeGreaterThan(0);
    expect(await page.locator("#trace-detail").textContent()).toContain("packing for Porto");

    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUTPUT_DIR, "inspector.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("opens a session picked in the list, shows tool calls, and lists every kept turn by its query, a page at a time", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`${msg.type()}: ${msg.text()}`);
    });
    await page.goto(`${base}/inspector`);
    await tabTo(page, "#api-key");
    await page.keyboard.type(KEY);
    await page.keyboard.press("Enter");
    await tabTo(page, "#user-id");
    await page.keyboard.type(USER2);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#session-select option").count(), UI_WAIT).toBe(2);
    // picking the session in the list opens it: no submit
    await page.selectOption("#session-select", "inspector-tools");
    await page.locator("#window-panel").waitFor({ state: "visible" });
    const rows = (await page.locator("#window tbody tr").allTextContents()).join("\n");
    expect(rows).toContain('calls get_weather({"city":"Porto"}) [call_w1]');
    expect(rows).toContain("result of call_w1: sunny, 24 C");

    // one trace per context read (and the one the inspector itself made), newest first, by query
    const labels = page.locator("#traces li button[data-trace-id]");
    await expect.poll(() => labels.count(), UI_WAIT).toBe(10);
    expect(await labels.first().textContent()).toMatch(/^context · .+ · (“question number 12”|no query)$/);
    expect((await labels.allTextContents()).join("\n")).toContain("“question number 12”");
    await page.locator("#traces-more").click();
    // The inspector's own read is traced after its response: the first page may have been listed
    // before that trace landed. Every question's turn is listed either way.
    await expect.poll(() => labels.count(), UI_WAIT).toBeGreaterThanOrEqual(TURNS);
    const listed = (await labels.allTextContents()).join("\n");
    for (let i = 1; i <= TURNS; i++) expect(listed).toContain(`“question number ${i}”`);
    expect(await page.locator("#traces-more").count()).toBe(0);
    const shown = await labels.count();
    expect([TURNS, TURNS + 1]).toContain(shown);
    expect(await page.locator("#traces-h").textContent()).toBe(`Latest turns (${shown} of ${shown})`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("marks superseded facts, hides them on 'Current only', and says the recall counts come from the cron", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await page.goto(`${base}/inspector`);
    await page.fill("#api-key", KEY);
    await page.press("#api-key", "Enter");
    await page.fill("#user-id", USER3);
    await page.press("#user-id", "Enter");
    await expect.poll(() => page.locator("#session-select option").count(), UI_WAIT).toBe(1);
    await page.selectOption("#session-select", SESSION3);
    await page.locator("#facts-panel").waitFor({ state: "visible" });

    const old = page.locator("#facts tbody tr.superseded");
    await expect.poll(() => old.count(), UI_WAIT).toBe(1);
    expect(await old.locator("s").textContent()).toContain("Berlin");
    expect(await old.locator(".superseded-badge").textContent()).toMatch(/^superseded \d{4}-\d{2}-\d{2}$/);
    // the learned fact; the two messages are kept as said too (episodes, never superseded)
    const current = page.locator("#facts tbody tr:not(.superseded)").filter({ hasNotText: "episode" });
    expect(await current.count()).toBe(1);
    expect(await current.textContent()).toContain("Munich");
    expect(await current.locator("s, .superseded-badge").count()).toBe(0);
    expect(await page.locator("#facts tbody tr").filter({ hasText: "episode" }).count()).toBe(2);
    expect(await page.locator("#facts-h").textContent()).toBe(`Facts of ${USER3} (3 current, 1 superseded)`);

    await page.check("#facts-current-only");
    await expect.poll(() => page.locator("#facts tbody tr").count(), UI_WAIT).toBe(3);
    expect(await page.locator("#facts tbody tr").filter({ hasNotText: "episode" }).textContent()).toContain("Munich");
    expect(await page.locator("#recalled-h").textContent()).toContain("updated by the cron every 15 min");
    await page.close();
  });

  it("clears everything another key showed when a key is refused (401)", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await page.goto(`${base}/inspector`);
    await page.fill("#api-key", KEY);
    await page.press("#api-key", "Enter");
    await page.fill("#user-id", USER);
    await page.press("#user-id", "Enter");
    await expect.poll(() => page.locator("#session-select option").count(), UI_WAIT).toBe(1);
    await page.click("#session-form button[type=submit]");
    // The panels show once the session is read; an error the inspector shows instead is what a failure reports.
    const opened = async () =>
      (await page.locator("#error").textContent()) || ((await page.locator("#facts-panel").isVisible()) ? "opened" : "");
    await expect.poll(opened, { timeout: 30_000 }).toBe("opened");
    await expect.poll(() => page.locator("#facts tbody tr").count(), UI_WAIT).toBe(3);

    await page.fill("#api-key", "not-a-key");
    await page.press("#api-key", "Enter");
    await page.fill("#user-id", USER);
    await page.press("#user-id", "Enter");
    await expect.poll(() => page.locator("#error").textContent(), UI_WAIT).toMatch(/^401: /);
    for (const panel of ["#budget-panel", "#window-panel", "#facts-panel", "#traces-panel", "#summary-panel"]) {
      expect(await page.locator(panel).isHidden(), panel).toBe(true);
    }
    expect(await page.locator("#facts tbody tr").count()).toBe(0);
    expect(await page.locator("#window tbody tr").count()).toBe(0);
    expect(await page.locator("#session-select option").count()).toBe(0);
    expect(await page.locator("#system").textContent()).toBe("");
    expect(await page.locator("#summary-text").textContent()).toBe("");
    expect(await page.locator("body").textContent()).not.toContain("The user prefers green tea");
    await page.close();
  });

  it("renders the API reference with no console warning or error (document validation, icon)", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") problems.push(`${msg.type()}: ${msg.text()}`);
    });
    page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
    page.on("response", (res) => {
      if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`);
    });
    await page.goto(`${base}/docs`, { waitUntil: "networkidle" });
    // The page checks each schema as it renders it: scroll through every section.
    for (let i = 0; i < 60; i++) {
      await page.mouse.wheel(0, 3000);
      await page.waitForTimeout(50);
    }
    await page.waitForTimeout(1000);
    expect(await page.locator("link[rel=icon]").getAttribute("href")).toBe("/favicon.svg");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("serves the API reference with the dev key filled in for try it (the dev stack only)", async () => {
    const html = await (await fetch(`${base}/docs`)).text();
    expect(html).toContain('"token": "dev-key"');
  });
});
