import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import { facts, manager, ref, sessions, settle, useSessionMemoryFixture } from "../../../support/session-memory-fixture.ts";

useSessionMemoryFixture();

describe("getContext", () => {
  beforeEach(async () => {
    await manager().add([{ role: "system", content: "你是客服小M" }]);
    await manager().add([{ role: "user", content: "我叫小明，喜欢蓝色" }], { persist: true });
    await settle();
    await manager().add([
      { role: "assistant", content: "你好小明" },
      { role: "user", content: "推荐一本书" },
    ]);
    sessions.calls.append = 0;
  });

  it("does not repeat a recalled fact whose source message the window still shows", async () => {
    const context = await manager().getContext({ query: "用户叫什么名字？小明" });
    expect(context.recall.facts.map((r) => r.fact.text)).toEqual(["我叫小明，喜欢蓝色"]);
    expect(context.facts).toEqual([]);
    expect(context.messages.map((m) => m.content)).toEqual(["你是客服小M", "我叫小明，喜欢蓝色", "你好小明", "推荐一本书"]);
  });

  it("reads once, queries facts once in parallel, and splices facts between system and window", async () => {
    // another session of the same user: the fact's source message is not in its window
    await manager({ sessionId: "s-other" }).add([
      { role: "system", content: "你是客服小M" },
      { role: "user", content: "推荐一本书" },
    ]);
    await settle();
    const readsBefore = sessions.calls.read ?? 0;
    const context = await manager({ sessionId: "s-other" }).getContext({ query: "用户叫什么名字？小明" });
    expect((sessions.calls.read ?? 0) - readsBefore).toBe(1);
    expect(facts.calls.query).toBe(1);
    expect(context.degraded).toEqual([]);
    expect(context.messages[0]).toEqual({ role: "system", content: "你是客服小M" });
    expect(context.messages[1]?.role).toBe("system");
    expect(context.messages[1]?.content).toContain(DEFAULT_MEMORY_OPTIONS.factsLabel);
    expect(context.messages[1]?.content).toContain("我叫小明");
    expect(context.messages.slice(2).map((m) => m.content)).toEqual(["推荐一本书"]);
    expect(context.facts).toHaveLength(1);
    expect(context.stats.windowMessages).toBe(1);
  });

  it("never writes recalled facts back: repeated reads do not accumulate", async () => {
    const before = await sessions.read(ref);
    for (let i = 0; i < 3; i++) await manager().getContext({ query: "小明喜欢什么" });
    expect(await sessions.read(ref)).toEqual(before);
    expect(sessions.calls.append).toBe(0);
    expect(facts.calls.upsert).toBe(1);
    expect(facts.calls.patch).toBeUndefined();
    const again = await manager({ sessionId: "s-other" }).getContext({ query: "小明喜欢什么" });
    expect(again.messages.filter((m) => m.content.startsWith(DEFAULT_MEMORY_OPTIONS.factsLabel))).toHaveLength(1);
  });

  it("answers without facts, flagged as degraded, when the fact query fails", async () => {
    facts.failNext("query", new Error("vector down"));
    const context = await manager().getContext({ query: "小明" });
    expect(context.degraded).toEqual(["facts"]);
    expect(context.facts).toEqual([]);
    expect(context.messages.map((m) => m.content)).toEqual(["你是客服小M", "我叫小明，喜欢蓝色", "你好小明", "推荐一本书"]);
  });

  it("does not query facts without a query, a user or a fact store", async () => {
    await manager().getContext();
    // a session nobody owns, and no user in the request
    await manager({ userId: undefined, sessionId: "s-anonymous" }).getContext({ query: "小明" });
    await manager({ facts: null }).getContext({ query: "小明" });
    expect(facts.calls.query).toBeUndefined();
  });

  it("searches a short follow-up together with the window's last turns when asked to", async () => {
    await manager().add([{ role: "user", content: "我妹妹小红的生日是五月二号" }], { persist: true });
    await settle();
    const sid = "s-follow";
    await manager({ sessionId: sid }).add([
      { role: "user", content: "我妹妹小红的生日快到了" },
      { role: "assistant", content: "要准备礼物吗？" },
    ]);
    const alone = await manager({ sessionId: sid }).getContext({ query: "那是哪天?" });
    expect(alone.facts).toEqual([]);
    const followed = await manager({ sessionId: sid }).getContext({ query: "那是哪天?", followUpFromWindow: true });
    expect(followed.facts.map((r) => r.fact.text)).toContain("我妹妹小红的生日是五月二号");
  });

  it("recalls for the session's stored user when the request names none", async () => {
    const context = await manager({ userId: undefined, sessionId: "s-other" }).getContext({ query: "用户叫什么名字？小明" });
    expect(context.facts).toEqual([]); // s-other has no owner yet
    await manager({ sessionId: "s-other" }).add([{ role: "user", content: "推荐一本书" }]);
    const owned = await manager({ userId: undefined, sessionId: "s-other" }).getContext({ query: "用户叫什么名字？小明" });
    expect(owned.facts.map((r) => r.fact.text)).toEqual(["我叫小明，喜欢蓝色"]);
  });

  it("fails when the session read fails", async () => {
    sessions.failNext("read", new Error("redis down"));
    await expect(manager().getContext({ query: "小明" })).rejects.toThrow("redis down");
  });

  it("applies the session's own window setting", async () => {
    await sessions.updateSettings(ref, { window: 1 });
    const context = await manager().getContext();
    expect(context.messages.map((m) => m.content)).toEqual(["你是客服小M", "推荐一本书"]);
  });
});
