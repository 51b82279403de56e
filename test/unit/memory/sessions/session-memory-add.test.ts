import { describe, expect, it } from "vitest";
import { factId } from "../../../../src/memory/facts/identity.ts";
import { deliverPendingFacts } from "../../../../src/memory/facts/learning.ts";
import {
  clock,
  deps,
  facts,
  manager,
  ref,
  scope,
  sessions,
  settle,
  users,
  useSessionMemoryFixture,
} from "../../../support/session-memory-fixture.ts";

useSessionMemoryFixture();

describe("add", () => {
  it("appends in one round trip and returns stats and whether compression is due", async () => {
    const result = await manager().add([
      { role: "system", content: "你是客服小M" },
      { role: "user", content: "你好" },
    ]);
    expect(sessions.calls).toEqual({ append: 1 });
    expect(facts.calls).toEqual({});
    expect(result.added.map((a) => a.duplicate)).toEqual([false, false]);
    expect(result.stats).toMatchObject({ messages: 2, windowMessages: 1, maxTokens: 2000 });
    expect(result.compressionDue).toBe(false);

    const long = await manager({ options: { maxTokens: 50 } }).add([{ role: "user", content: "很长的消息。".repeat(40) }]);
    expect(long.compressionDue).toBe(true);
  });

  it("persists user messages as facts: queued in the append, delivered after it (one read to merge, one upsert)", async () => {
    const result = await manager().add(
      [
        { role: "user", content: "我叫小明，喜欢蓝色" },
        { role: "assistant", content: "记住了" },
        { role: "user", content: "我叫小明，喜欢蓝色。" },
      ],
      { persist: true },
    );
    const id = await factId(scope, "我叫小明，喜欢蓝色");
    expect(result.facts).toEqual([id]); // assistant text never becomes a fact; the restatement is the same fact
    expect(sessions.calls).toEqual({ append: 1 });
    await settle();
    expect(facts.calls).toEqual({ findByContent: 1, upsert: 1 });
    expect(facts.all(scope)).toMatchObject([{ id, type: "preference", sourceSession: "s1", version: 1 }]);
    expect(await users.pendingFacts(scope, 10)).toEqual([]);

    // Saying it again refreshes the same fact instead of resetting it.
    const createdAt = facts.all(scope)[0]?.createdAt;
    await manager().add([{ role: "user", content: "我叫小明，喜欢蓝色！" }], { persist: true });
    await settle();
    expect(facts.all(scope)).toMatchObject([{ id, version: 2, createdAt }]);
  });

  it("persists per message when asked, and not at all without a user", async () => {
    await manager().add([
      { role: "user", content: "I prefer tea", persist: true },
      { role: "user", content: "just chatting" },
    ]);
    await settle();
    expect(facts.all(scope).map((f) => f.text)).toEqual(["I prefer tea"]);
    await manager({ userId: undefined }).add([{ role: "user", content: "I prefer coffee", persist: true }]);
    await settle();
    expect(facts.calls.upsert).toBe(1);
  });

  it("keeps a persisted fact queued when long-term memory is down, and delivers it later", async () => {
    facts.failNext("upsert");
    const result = await manager().add([{ role: "user", content: "I am vegetarian" }], { persist: true });
    expect((await sessions.read(ref)).window.map((m) => m.content)).toEqual(["I am vegetarian"]);
    await settle();
    expect(deps.failures).toHaveLength(1);
    expect(facts.all(scope)).toEqual([]);
    expect((await users.pendingFacts(scope, 10)).map((f) => f.id)).toEqual(result.facts);
    // the next delivery (the next persisted write, or the cron) brings it in
    expect(await deliverPendingFacts({ facts, users }, scope, clock)).toBe(1);
    expect(facts.all(scope).map((f) => f.text)).toEqual(["I am vegetarian"]);
    expect(await users.pendingFacts(scope, 10)).toEqual([]);
  });

  it("stores nothing at all - no message, no queued fact - when the session belongs to another user", async () => {
    await manager().add([{ role: "user", content: "mine" }]);
    await expect(
      manager({ userId: "intruder" }).add([{ role: "user", content: "I am the owner now", persist: true }]),
    ).rejects.toMatchObject({
      kind: "conflict",
    });
    await settle();
    expect((await sessions.read(ref)).window.map((m) => m.content)).toEqual(["mine"]);
    expect(await users.pendingFacts({ tenant: "acme", userId: "intruder" }, 10)).toEqual([]);
    expect(facts.all({ tenant: "acme", userId: "intruder" })).toEqual([]);
  });

  it("fails when the append fails", async () => {
    sessions.failNext("append", new Error("redis down"));
    await expect(manager().add([{ role: "user", content: "hi" }])).rejects.toThrow("redis down");
  });
});

describe("recall and recall counts", () => {
  it("ranks facts by score; a context counts its recalls in Redis, never with a Vector request", async () => {
    await manager().add(
      [
        { role: "user", content: "我喜欢蓝色" },
        { role: "user", content: "我住在上海" },
      ],
      { persist: true },
    );
    await settle();
    const recalled = await manager().recall("用户喜欢什么颜色？蓝色", 1);
    expect(recalled.map((r) => r.fact.text)).toEqual(["我喜欢蓝色"]);
    // from another session: in this one the window still shows the source messages
    const context = await manager({ sessionId: "s-other" }).getContext({ query: "用户喜欢什么颜色？蓝色", k: 1 });
    await settle();
    expect(facts.calls.touch).toBeUndefined();
    expect(await users.recallCounts(scope, 10)).toEqual([{ id: context.facts[0]!.fact.id, count: 1, lastAccessedAt: clock }]);
  });
});
