import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { uniqueId } from "../support/helpers.ts";
import { append, readSession, rounds } from "../support/sessions.ts";
import { chatRequests, compress, readHistory, resetLlm, setLlmMode, type FakeModeOptions } from "../support/llm.ts";

const KEEP = 4;

const ids = (messages: readonly { id?: string }[]): (string | undefined)[] => messages.map((m) => m.id);

/** Everything a failed compression must leave as it was. */
async function snapshot(sid: string) {
  const state = await readSession(sid);
  const history = await readHistory(sid);
  return { summary: state.summary, system: state.system, window: state.window, stats: state.stats, history };
}

function loggedErrors(spy: { mock: { calls: unknown[][] } }): string {
  return spy.mock.calls.map((args) => args.map(String).join(" ")).join("\n");
}

beforeEach(async () => {
  await resetLlm();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await resetLlm();
});

const failures: { name: string; mode: FakeModeOptions; error: RegExp; env?: Record<string, string> }[] = [
  { name: "an LLM error (500)", mode: { mode: "error", status: 500 }, error: /HTTP 500/ },
  { name: "an LLM timeout", mode: { mode: "timeout", delayMs: 3000 }, error: /timed out/, env: { OPENAI_TIMEOUT_MS: "500" } },
  { name: "an empty answer", mode: { mode: "empty" }, error: /empty/ },
  { name: "a blank answer", mode: { mode: "fixed", text: " \n\t " }, error: /empty/ },
];

describe("a failing summarizer leaves the session untouched", () => {
  it.each(failures)("$name: summarizer_failed, nothing changes, and a later trigger succeeds", async ({ mode, error, env }) => {
    const sid = uniqueId("llm-fail");
    await append(sid, [{ id: "sys", role: "system", content: "You are terse." }, ...rounds("m", 10)]);
    // a first successful compression, so "unchanged" also covers an existing summary
    await setLlmMode({ mode: "summary" });
    expect(await compress(sid, { force: true })).toMatchObject({ compressed: true, version: 1 });
    await append(sid, rounds("n", 8));
    const before = await snapshot(sid);

    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await setLlmMode(mode);
    const started = Date.now();
    const failed = await compress(sid, { force: true, env });
    const elapsed = Date.now() - started;
    expect(failed).toMatchObject({ compressed: false, reason: "summarizer_failed", error: expect.stringMatching(error) });
    expect(await snapshot(sid)).toEqual(before);
    expect(loggedErrors(errors)).toMatch(/summarizer failed/);
    if (env?.OPENAI_TIMEOUT_MS) expect(elapsed).toBeLessThan(2900); // gave up before the fake answered

    await setLlmMode({ mode: "summary" });
    const retried = await compress(sid, { force: true, env }); // the lock was released
    expect(retried).toMatchObject({ compressed: true, version: 2, method: "llm" });
    const after = await snapshot(sid);
    expect([...ids(after.history.archived), ...ids(after.window)]).toEqual([...ids(before.history.archived), ...ids(before.window)]);
    expect(ids(after.window)).toEqual(ids(before.window.slice(-KEEP)));
    expect(after.system).toEqual(before.system);
  });

  it("a failed background compression is retried by the next append that is over the threshold", async () => {
    const env = { MEMORY_MAX_TOKENS: "300" };
    const sid = uniqueId("bg-fail");
    const first = rounds("m", 40);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await setLlmMode({ mode: "error", status: 503 });
    const res = await append(sid, first, { env }); // drains the background work
    expect(res.stats.windowTokens).toBeGreaterThan(300);
    expect(res.compressionDue).toBe(true);
    expect((await chatRequests()).length).toBeGreaterThan(0); // it was tried
    expect(loggedErrors(errors)).toMatch(/summarizer failed/);
    let state = await readSession(sid, { env });
    expect(state.summary).toBeNull();
    expect(ids(state.window)).toEqual(ids(first));
    expect((await readHistory(sid, { env })).archived).toEqual([]);

    await setLlmMode({ mode: "summary" });
    const next = { id: "next", role: "user" as const, content: "And one more thing." };
    expect((await append(sid, [next], { env })).compressionDue).toBe(true);
    state = await readSession(sid, { env });
    const all = [...first, next];
    expect(state.summary).toMatchObject({ version: 1, method: "llm", covered: all.length - KEEP });
    expect(ids(state.window)).toEqual(ids(all.slice(-KEEP)));
    expect(ids((await readHistory(sid, { env })).archived)).toEqual(ids(all.slice(0, -KEEP)));
  });
});

describe("an over-long summary", () => {
  it("is condensed once more, then cut to SUMMARY_MAX_TOKENS, and committed", async () => {
    const env = { SUMMARY_MAX_TOKENS: "40" };
    const sid = uniqueId("llm-long");
    await append(sid, rounds("m", 10), { env });
    // digits and letters mixed: far more real tokens than the fake's length estimate caps
    await setLlmMode({ mode: "fixed", text: Array.from({ length: 200 }, (_, i) => `k${i}x${i * 7}q`).join(" ") });
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    const outcome = await compress(sid, { force: true, env });
    expect(outcome).toMatchObject({ compressed: true, version: 1, method: "llm" });
    expect(outcome.summaryTokens).toBeGreaterThan(0);
    expect(outcome.summaryTokens).toBeLessThanOrEqual(40);
    expect(await chatRequests()).toHaveLength(2); // the draft, then the request to shorten it
    expect(loggedErrors(warnings)).toMatch(/cut/);
    const state = await readSession(sid, { env });
    expect(state.summary).toMatchObject({ version: 1, tokens: outcome.summaryTokens });
    expect((state.summary as { text: string }).text.startsWith("k0x0q")).toBe(true);
  });
});
