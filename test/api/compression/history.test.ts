import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { append, readContext, readSession, sessionPath, sum, type MessageInput } from "../support/sessions.ts";
import {
  chatRequests,
  compress,
  promptText,
  readHistory,
  resetLlm,
  setLlmMode,
  type HistoryResponse,
  type SummaryView,
} from "../support/llm.ts";

const SYSTEM = "You are a cooking assistant.";
const KEEP = 4;

function dish(i: number): MessageInput {
  return i % 2 === 0
    ? { id: `q${i}`, role: "user", content: `Question ${i}: how long should I roast ${i + 2} kg of potatoes?` }
    : { id: `r${i}`, role: "assistant", content: `Answer ${i}: about ${30 + i} minutes at 200 degrees, turning once.` };
}

const ids = (messages: readonly { id?: string }[]): (string | undefined)[] => messages.map((m) => m.id);

beforeEach(async () => {
  await resetLlm();
  await setLlmMode({ mode: "summary" });
});

afterEach(async () => {
  await resetLlm();
});

describe("history: the summary and the archived originals", () => {
  it("returns exactly the summarized messages, in order, and the state shows version, method, covered and ratio", async () => {
    const sid = uniqueId("history");
    await append(sid, [{ id: "sys", role: "system", content: SYSTEM }, ...Array.from({ length: 10 }, (_, i) => dish(i))]);
    const before = await readSession(sid);
    expect((await readHistory(sid)).archived).toEqual([]);

    // below the threshold nothing happens unless forced
    expect(await compress(sid)).toMatchObject({ compressed: false, reason: "below_threshold" });
    const first = await compress(sid, { force: true });
    const prefix1 = before.window.slice(0, 10 - KEEP);
    expect(first).toMatchObject({
      compressed: true,
      reason: "forced",
      removed: prefix1.length,
      removedTokens: sum(prefix1.map((m) => m.tokens)),
      version: 1,
      method: "llm",
    });

    let state = await readSession(sid);
    let history = await readHistory(sid);
    expect(history.archived).toEqual(prefix1); // the stored originals, unchanged
    expect(history.total).toBe(prefix1.length);
    expect(state.window).toEqual(before.window.slice(-KEEP));
    expect(state.system).toEqual(before.system);
    const summary1 = state.summary as SummaryView;
    expect(history.summary).toEqual(summary1);
    expect(summary1).toMatchObject({ version: 1, method: "llm", covered: prefix1.length, tokens: first.summaryTokens });
    expect(summary1.text).toMatch(/^Summary: /);
    expect(summary1.lastRatio).toBe(first.ratio);
    // Ratios are shown rounded to 4 decimals.
    expect(summary1.lastRatio).toBe(Math.round((summary1.tokens / sum(prefix1.map((m) => m.tokens))) * 10_000) / 10_000);
    expect(state.stats.windowTokens).toBe(sum(state.window.map((m) => m.tokens)));

    // a second compression folds the old summary and the next prefix into the one summary
    await append(
      sid,
      Array.from({ length: 6 }, (_, i) => dish(10 + i)),
    );
    const mid = await readSession(sid);
    const prefix2 = mid.window.slice(0, mid.window.length - KEEP);
    const second = await compress(sid, { force: true });
    expect(second).toMatchObject({ compressed: true, removed: prefix2.length, version: 2 });
    state = await readSession(sid);
    history = await readHistory(sid);
    const summary2 = state.summary as SummaryView;
    expect(summary2).toMatchObject({ version: 2, method: "llm", covered: prefix1.length + prefix2.length });
    expect(summary2.lastRatio).toBe(
      Math.round((summary2.tokens / (summary1.tokens + sum(prefix2.map((m) => m.tokens)))) * 10_000) / 10_000,
    );
    expect(history.archived).toEqual([...prefix1, ...prefix2]);
    expect([...ids(history.archived), ...ids(state.window)]).toEqual(Array.from({ length: 16 }, (_, i) => dish(i).id));

    const prompts = (await chatRequests()).map(promptText);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain(summary1.text); // rolling: the old summary goes back in
    for (const m of prefix2) expect(prompts[1]).toContain(m.content);
    for (const m of prefix1) expect(prompts[1]).not.toContain(m.content);

    // paging through the archive
    const page = await call<HistoryResponse>("GET", `${sessionPath(sid)}/history?offset=2&limit=3`);
    expect(page.status, page.text).toBe(200);
    expect(page.json.archived).toEqual(history.archived.slice(2, 5));
    expect(page.json.total).toBe(history.archived.length);

    // the context shows the system prompt, then the summary, then the window
    const ctx = await readContext(sid);
    expect(ctx.messages[0]).toEqual({ role: "system", content: SYSTEM });
    expect(ctx.messages[1]?.role).toBe("system");
    expect(ctx.messages[1]?.content).toContain(summary2.text);
    expect(ctx.messages.slice(2).map((m) => m.content)).toEqual(state.window.map((m) => m.content));
  });
});

describe("archived messages after compression", () => {
  it("a retried append of an archived message is a duplicate and does not come back into the window", async () => {
    const sid = uniqueId("history-retry");
    const sent = Array.from({ length: 10 }, (_, i) => dish(i));
    await append(sid, sent);
    expect(await compress(sid, { force: true })).toMatchObject({ compressed: true, removed: 6 });
    const before = await readSession(sid);

    const retry = await append(sid, sent.slice(0, 3)); // a client retrying an old request
    expect(retry.added.map((a) => a.duplicate)).toEqual([true, true, true]);
    const after = await readSession(sid);
    expect(after.window).toEqual(before.window);
    expect(ids((await readHistory(sid)).archived)).toEqual(ids(sent.slice(0, 6)));
  });

  it("keeps only the newest ARCHIVE_LIMIT originals; 0 keeps none", async () => {
    const limited = { ARCHIVE_LIMIT: "5" };
    const sid = uniqueId("history-limit");
    const sent = Array.from({ length: 16 }, (_, i) => dish(i));
    await append(sid, sent.slice(0, 10), { env: limited });
    expect(await compress(sid, { force: true, env: limited })).toMatchObject({ compressed: true, removed: 6 });
    await append(sid, sent.slice(10), { env: limited });
    expect(await compress(sid, { force: true, env: limited })).toMatchObject({ compressed: true, removed: 6, version: 2 });
    const history = await readHistory(sid, { env: limited });
    expect(ids(history.archived)).toEqual(ids(sent.slice(7, 12))); // the 12 summarized, newest 5
    expect(history.total).toBe(5);
    expect(history.summary).toMatchObject({ covered: 12 });

    const none = { ARCHIVE_LIMIT: "0" };
    const other = uniqueId("history-none");
    await append(other, sent.slice(0, 10), { env: none });
    expect(await compress(other, { force: true, env: none })).toMatchObject({ compressed: true, removed: 6 });
    const empty = await readHistory(other, { env: none });
    expect(empty.archived).toEqual([]);
    expect(empty.summary).toMatchObject({ version: 1, covered: 6 });
  });
});
