import { describe, expect, it } from "vitest";
import { uniqueId } from "../support/helpers.ts";
import { contextFor, listAll } from "../support/facts.ts";
import { append, putSettings, readSession } from "../support/sessions.ts";

/**
 * A name said once and persisted, then twenty rounds of small talk in the same session: the name
 * is recalled into the context (not only carried by the summary), and the small talk teaches no
 * fact (its messages are kept as episodes, which never crowd a learned or persisted fact out).
 */
describe("a persisted statement after twenty rounds of small talk", () => {
  it("is recalled, and the small talk stores no fact", { timeout: 120_000 }, async () => {
    const uid = uniqueId("xiaoming");
    const sid = uniqueId("chat");
    // a window small enough that the rounds are compressed, as in a long chat: the name leaves the window
    await putSettings(sid, { maxTokens: 300 });
    await append(
      sid,
      [
        { role: "user", content: "我叫小明，喜欢蓝色", persist: true },
        { role: "assistant", content: "你好小明！记住了。" },
      ],
      { userId: uid },
    );
    for (let round = 0; round < 20; round++) {
      await append(
        sid,
        [
          { role: "user", content: `第${round}轮：我们聊聊天气、旅行和美食，话题很多很多。` },
          { role: "assistant", content: "好的，我们继续聊吧。" },
        ],
        { userId: uid },
      );
    }
    expect((await readSession(sid)).summary).not.toBeNull();
    const context = await contextFor(sid, { query: "用户叫什么名字?", userId: uid });
    expect(context.recalled.map((r) => r.text)).toContain("我叫小明，喜欢蓝色");
    const stored = await listAll(uid);
    expect(stored.filter((f) => f.type !== "episode").map((f) => f.text)).toEqual(["我叫小明，喜欢蓝色"]);
  });
});
