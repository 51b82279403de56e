import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueId } from "../support/helpers.ts";
import { FACTS_LABEL, SUMMARY_LABEL, contextFor, recall } from "../support/facts.ts";
import { compress, readHistory, resetLlm, setLlmMode, type SummaryView } from "../support/llm.ts";
import { append, putSettings, readSession } from "../support/sessions.ts";

// The thin manager's acceptance checks through the HTTP API: a thin manager per request, facts in Vector,
// the window and the one rolling summary in Redis, a fake LLM that summarizes.

const PROMPT = "你是客服小M，回答简洁友好。";
const FACT = "我叫小明，喜欢蓝色";

beforeAll(async () => {
  await setLlmMode({ mode: "summary" });
});

afterAll(async () => {
  await resetLlm();
});

const isFactsMessage = (m: { role: string; content: string }) => m.role === "system" && m.content.startsWith(FACTS_LABEL);
const isSummaryMessage = (m: { role: string; content: string }) => m.role === "system" && m.content.startsWith(SUMMARY_LABEL);

describe("acceptance over HTTP", () => {
  it("remembers 小明 and 蓝色 across twenty compressed rounds without polluting the window", async () => {
    const sid = uniqueId("accept");
    const uid = uniqueId("xiaoming");
    await putSettings(sid, { window: 8, maxTokens: 300, keep: 4 });

    // (1) persona and a persisted user fact
    await append(sid, [{ id: "sys", role: "system", content: PROMPT }], { userId: uid });
    const persisted = await append(sid, [{ id: "fact", role: "user", content: FACT, persist: true }], { userId: uid });
    expect(persisted.facts).toHaveLength(1);

    // (2) twenty rounds, compress after each (appends also schedule it in the background once due),
    // the chat loop's context read every round
    for (let round = 0; round < 20; round++) {
      await append(
        sid,
        [
          { id: `u${round}`, role: "user", content: `第${round}轮：周末我们去哪里玩比较好？请给一些建议。` },
          { id: `a${round}`, role: "assistant", content: `第${round}轮建议：可以去西湖边散步，再去附近的茶馆喝茶休息。` },
        ],
        { userId: uid },
      );
      const ctx = await contextFor(sid, { query: `第${round}轮去哪里玩`, userId: uid });
      expect(ctx.messages[0]).toEqual({ role: "system", content: PROMPT });
      const result = await compress(sid);
      expect(["over_threshold", "below_threshold"]).toContain(result.reason);
    }

    // (3) long-term recall of the name
    const ctx = await contextFor(sid, { query: "用户叫什么名字?", userId: uid });
    expect(ctx.recalled.map((r) => r.text)).toContain(FACT);
    const factsMessages = ctx.messages.filter(isFactsMessage);
    expect(factsMessages).toHaveLength(1);
    expect(factsMessages[0]?.content).toContain("小明");
    // order: system prompt -> summary -> recalled facts -> window
    expect(ctx.messages[0]).toEqual({ role: "system", content: PROMPT });
    expect(ctx.messages.findIndex(isSummaryMessage)).toBe(1);
    expect(ctx.messages.findIndex(isFactsMessage)).toBe(2);
    expect(ctx.messages.slice(3).every((m) => m.role !== "system")).toBe(true);
    expect(ctx.messages.slice(3).length).toBeLessThanOrEqual(8);

    // (4) the stored window holds no recalled-facts message, only what was sent
    const state = await readSession(sid);
    expect(state.system.map((m) => m.content)).toEqual([PROMPT]);
    expect(state.window.every((m) => m.role !== "system")).toBe(true);
    expect(state.window.some((m) => m.content.includes(FACTS_LABEL))).toBe(false);
    const summary = state.summary as SummaryView | null;
    expect(summary).not.toBeNull();
    expect(summary?.text).not.toContain(FACTS_LABEL);
    // nothing lost and nothing added: 1 persisted + 40 round messages, summarized or in the window
    expect((summary?.covered ?? 0) + state.window.length).toBe(41);

    // (5) exactly one rolling summary (each compression rolls it: version = compressions so far)
    expect(summary?.method).toBe("llm");
    expect(summary?.version).toBeGreaterThanOrEqual(1);
    expect(ctx.messages.filter(isSummaryMessage)).toHaveLength(1);
    expect(state.window.some((m) => m.content.startsWith("Summary:"))).toBe(false);
    const history = await readHistory(sid);
    expect(history.summary?.version).toBe(summary?.version);
    expect(history.summary?.text).toBe(summary?.text);
    expect(history.archived.map((m) => m.id)).toContain("fact");

    // (6) a new instance: the Worker holds nothing between requests, so a fresh call rebuilds it
    const colors = await recall(uid, "用户喜欢什么颜色?");
    expect(colors.some((f) => f.text.includes("蓝色"))).toBe(true);
    const other = await contextFor(uniqueId("accept-new"), { query: "用户喜欢什么颜色?", userId: uid });
    expect(other.recalled.some((r) => r.text.includes("蓝色"))).toBe(true);

    // (7) the persona is still pinned first
    const after = await readSession(sid);
    expect(after.system.map((m) => [m.id, m.role, m.content])).toEqual([["sys", "system", PROMPT]]);
    const last = await contextFor(sid, { query: "用户喜欢什么颜色?", userId: uid });
    expect(last.messages[0]).toEqual({ role: "system", content: PROMPT });
  });

  it("under the threshold twenty rounds do not compress, and recall still works", async () => {
    const sid = uniqueId("accept-quiet");
    const uid = uniqueId("xiaoming");
    await append(sid, [{ id: "sys", role: "system", content: PROMPT }], { userId: uid });
    await append(sid, [{ id: "fact", role: "user", content: FACT, persist: true }], { userId: uid });
    for (let round = 0; round < 20; round++) {
      await append(
        sid,
        [
          { id: `u${round}`, role: "user", content: `第${round}轮` },
          { id: `a${round}`, role: "assistant", content: "好的" },
        ],
        { userId: uid },
      );
      const result = await compress(sid);
      expect(result).toMatchObject({ compressed: false, reason: "below_threshold" });
    }
    const state = await readSession(sid);
    expect(state.summary).toBeNull();
    expect(state.window).toHaveLength(41);
    // the window still shows the statement: it is not repeated as a recalled fact
    const ctx = await contextFor(sid, { query: "用户叫什么名字?", userId: uid });
    expect(ctx.recalled).toEqual([]);
    expect(ctx.messages.filter(isFactsMessage)).toHaveLength(0);
    expect(ctx.messages.filter((m) => m.content === FACT)).toHaveLength(1);
    // another session of the same user recalls it
    const other = await contextFor(uniqueId("accept-quiet-other"), { query: "用户叫什么名字?", userId: uid });
    expect(other.recalled.map((r) => r.text)).toEqual([FACT]);
    expect(other.messages.filter(isFactsMessage)).toHaveLength(1);
  });
});
