/** @module Per-session settings (the window override), resetting a session with or without its system prompt, and session stats. */
import { describe, expect, it } from "vitest";
import { exactTokenCount } from "../../../src/llm/tokenizer.ts";
import { call, uniqueId } from "../support/helpers.ts";
import { append, putSettings, readContext, readSession, sessionPath, sum } from "../support/sessions.ts";

const SYSTEM = "You are a helpful travel assistant. Answer briefly.";

describe("per-session settings, reset and stats", () => {
  it("window: 3 shows at most the 3 newest messages; null clears the override", async () => {
    const sid = uniqueId("window");
    await append(sid, [
      { id: "sys", role: "system", content: SYSTEM },
      ...Array.from({ length: 6 }, (_, i) => ({ id: `m${i}`, role: "user" as const, content: `note ${i}` })),
    ]);
    const set = await putSettings(sid, { window: 3 });
    expect(set.settings.window).toBe(3);
    expect(set.settings.overrides).toEqual({ window: 3 });

    const ctx = await readContext(sid);
    expect(ctx.messages.map((m) => m.content)).toEqual([SYSTEM, "note 3", "note 4", "note 5"]);
    expect(ctx.omitted.window).toBe(3);
    expect((await readSession(sid)).window).toHaveLength(6);

    const cleared = await putSettings(sid, { window: null });
    expect(cleared.settings.overrides).toEqual({});
    expect(cleared.settings.window).toBe(0);
    expect((await readContext(sid)).messages).toHaveLength(7);
  });

  it("DELETE ?keepSystem=true keeps only the system prompt; false removes everything", async () => {
    const sid = uniqueId("reset");
    await append(sid, [
      { id: "sys", role: "system", content: SYSTEM },
      { id: "u", role: "user", content: "hi" },
      { id: "a", role: "assistant", content: "hello" },
    ]);

    const kept = await call("DELETE", `${sessionPath(sid)}?keepSystem=true`);
    expect(kept.status).toBe(200);
    expect(kept.json).toEqual({ sessionId: sid, deleted: 2, keptSystem: 1 });
    let state = await readSession(sid);
    expect(state.system.map((m) => m.content)).toEqual([SYSTEM]);
    expect(state.window).toEqual([]);
    expect(state.stats).toMatchObject({ messages: 1, windowMessages: 0, windowTokens: 0 });
    expect((await readContext(sid)).messages).toEqual([{ role: "system", content: SYSTEM }]);
    // the kept prompt stays idempotent: re-sending it does not duplicate it
    const again = await append(sid, [
      { id: "sys", role: "system", content: SYSTEM },
      { id: "u", role: "user", content: "hi again" },
    ]);
    expect(again.added.map((a) => a.duplicate)).toEqual([true, false]);

    const all = await call("DELETE", `${sessionPath(sid)}?keepSystem=false`);
    expect(all.status).toBe(200);
    expect(all.json).toEqual({ sessionId: sid, deleted: 2, keptSystem: 0 });
    state = await readSession(sid);
    expect(state.system).toEqual([]);
    expect(state.window).toEqual([]);
    expect(state.stats).toMatchObject({ messages: 0, tokens: 0 });
    expect((await readContext(sid)).messages).toEqual([]);
  });

  it("reports stats for a known input", async () => {
    const sid = uniqueId("stats");
    await putSettings(sid, { maxTokens: 500 });
    const res = await append(sid, [
      { role: "system", content: SYSTEM },
      { role: "user", content: "I prefer window seats.", importance: 0.2 },
      { role: "assistant", content: "Noted: window seats.", importance: 0.6 },
      { role: "user", content: "Book the 9am train." },
    ]);
    for (const [i, text] of [SYSTEM, "I prefer window seats.", "Noted: window seats.", "Book the 9am train."].entries()) {
      expect(res.added[i]?.tokens).toBe(4 + (await exactTokenCount(text)));
    }
    const tokens = sum(res.added.map((a) => a.tokens));
    const windowTokens = sum(res.added.slice(1).map((a) => a.tokens));
    const expected = {
      messages: 4,
      tokens,
      windowMessages: 3,
      windowTokens,
      maxTokens: 500,
      utilization: windowTokens / 500,
      avgImportance: (1 + 0.2 + 0.6 + 0.5) / 4,
    };
    for (const stats of [res.stats, (await readSession(sid)).stats, (await readContext(sid)).stats]) {
      expect(stats).toMatchObject({
        ...expected,
        utilization: expect.closeTo(expected.utilization, 10),
        avgImportance: expect.closeTo(expected.avgImportance, 10),
      });
    }
  });
});
