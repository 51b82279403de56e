import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import { ExtractiveSummarizer } from "../../../../src/memory/compression/extractive-summary.ts";
import { factId } from "../../../../src/memory/facts/identity.ts";
import { deliverPendingFacts } from "../../../../src/memory/facts/learning.ts";
import { SessionMemory } from "../../../../src/memory/sessions/session-memory.ts";
import { DEFAULT_MEMORY_OPTIONS, type MemoryOptions } from "../../../../src/memory/options.ts";
import { DENSE_ZERO_COSINE } from "../../../../src/memory/facts/relevance.ts";
import type { MemoryLogger } from "../../../../src/memory/ports/operations.ts";
import type { Summarizer, TokenCounter } from "../../../../src/memory/ports/llm.ts";
import type { SessionRef } from "../../../../src/memory/model.ts";
import { testDeps, type TestDeps } from "../../../support/memory-deps.ts";
import {
  InMemoryFactStore,
  InMemorySessionStore,
  InMemoryUserStore,
  joinSummary,
  ScriptedSummarizer,
} from "../../../support/memory-fakes.ts";

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

const ref: SessionRef = { tenant: "acme", sessionId: "s1" };
const scope = { tenant: "acme", userId: "u1" };
let clock = Date.UTC(2026, 0, 1);
let sessions: InMemorySessionStore;
let users: InMemoryUserStore;
let facts: InMemoryFactStore;
let logs: { level: string; message: string }[];
let deps: TestDeps;

const logger: MemoryLogger = {
  debug: (message) => logs.push({ level: "debug", message }),
  info: (message) => logs.push({ level: "info", message }),
  warn: (message) => logs.push({ level: "warn", message }),
  error: (message) => logs.push({ level: "error", message }),
};

beforeEach(() => {
  clock += 1000;
  sessions = new InMemorySessionStore(() => clock);
  users = new InMemoryUserStore();
  sessions.users = users;
  facts = new InMemoryFactStore();
  logs = [];
});

interface ManagerOverrides {
  userId?: string | undefined;
  sessionId?: string;
  facts?: InMemoryFactStore | null;
  summarizer?: Summarizer;
  options?: Partial<MemoryOptions>;
}

/** A manager over the shared fakes; its background work lands in `deps` (see `settle`). */
function manager(overrides: ManagerOverrides = {}): SessionMemory {
  deps = testDeps({
    counter,
    sessions,
    users,
    facts: overrides.facts === undefined ? facts : overrides.facts,
    summarizer: overrides.summarizer ?? new ScriptedSummarizer(),
    options: overrides.options,
    now: () => clock,
    logger,
  });
  return new SessionMemory(deps, {
    sessionId: overrides.sessionId ?? ref.sessionId,
    userId: "userId" in overrides ? overrides.userId : "u1",
  });
}

/** Runs the background work the last manager scheduled. */
const settle = () => deps.settle();

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

describe("maybeCompress", () => {
  async function fill(rounds: number, filler = ""): Promise<void> {
    for (let i = 0; i < rounds; i++) {
      await manager().add([
        { role: "user", content: `第${i + 1}轮问题${filler}` },
        { role: "assistant", content: `第${i + 1}轮回答${filler}` },
      ]);
    }
  }

  it("does nothing under the threshold: 20 short rounds are not a reason to compress", async () => {
    await fill(20);
    const summarizer = new ScriptedSummarizer();
    expect(await manager({ summarizer }).maybeCompress()).toEqual({ compressed: false, reason: "below_threshold" });
    expect(summarizer.requests).toHaveLength(0);
    expect(sessions.calls.acquireLock).toBeUndefined();
  });

  it("folds all but the newest `keep` messages into the one rolling summary", async () => {
    await fill(5, "。详细的说明".repeat(30));
    const before = await sessions.read(ref);
    const summarizer = new ScriptedSummarizer(joinSummary);
    const result = await manager({ summarizer, options: { maxTokens: 300 } }).maybeCompress();
    expect(result).toMatchObject({ compressed: true, reason: "over_threshold", removed: 6, version: 1, method: "llm" });
    expect(summarizer.requests[0]?.messages.map((m) => m.id)).toEqual(before.window.slice(0, 6).map((m) => m.id));
    expect(summarizer.requests[0]?.maxTokens).toBe(500);

    const after = await sessions.read(ref);
    expect(after.window.map((m) => m.id)).toEqual(before.window.slice(6).map((m) => m.id));
    expect(after.summary).toMatchObject({ version: 1, covered: 6, method: "llm" });
    if (!result.compressed || !after.summary) throw new Error("expected a summary");
    expect(after.summary.tokens).toBe(counter.count(after.summary.text));
    expect(result.ratio).toBeCloseTo(after.summary.tokens / before.window.slice(0, 6).reduce((n, m) => n + m.tokens, 0), 10);
    expect(sessions.isLocked(ref)).toBe(false);

    // a second compression merges into the same summary
    await fill(3, "。更多内容".repeat(40));
    const second = await manager({ summarizer, options: { maxTokens: 300 } }).maybeCompress();
    expect(second).toMatchObject({ compressed: true, version: 2 });
    expect(summarizer.requests[1]?.previous?.version).toBe(1);
    expect((await sessions.read(ref)).summary?.covered).toBe(6 + (4 + 6 - 4));
  });

  it("leaves the session unchanged when the summarizer fails or returns nothing", async () => {
    await fill(5, "。详细的说明".repeat(30));
    const before = await sessions.read(ref);
    const failing: Summarizer = { summarize: () => Promise.reject(new Error("LLM timeout")) };
    expect(await manager({ summarizer: failing, options: { maxTokens: 300 } }).maybeCompress()).toEqual({
      compressed: false,
      reason: "summarizer_failed",
      error: "LLM timeout",
    });
    const empty = new ScriptedSummarizer(() => ({ text: "   " }));
    expect(await manager({ summarizer: empty, options: { maxTokens: 300 } }).maybeCompress()).toMatchObject({
      compressed: false,
      reason: "summarizer_failed",
    });
    const after = await sessions.read(ref);
    expect({ ...after, meta: null }).toEqual({ ...before, meta: null });
    expect(after.meta?.summaryFailures).toBe(2); // counted, so a summarizer that keeps failing is replaced
    expect(sessions.calls.commitCompression).toBeUndefined();
    expect(sessions.isLocked(ref)).toBe(false);
    expect(logs.filter((l) => l.level === "error")).toHaveLength(2);
  });

  it("falls back to the extractive summarizer after repeated failures, so the window stays bounded", async () => {
    await fill(5, "。详细的说明".repeat(30));
    const failing: Summarizer = { summarize: () => Promise.reject(new Error("LLM down")) };
    const options = { maxTokens: 300, summaryFailureLimit: 2 };
    for (let i = 0; i < 2; i++)
      expect(await manager({ summarizer: failing, options }).maybeCompress()).toMatchObject({ reason: "summarizer_failed" });
    const result = await manager({ summarizer: failing, options }).maybeCompress();
    expect(result).toMatchObject({ compressed: true, method: "extractive" });
    const after = await sessions.read(ref);
    expect(after.summary?.method).toBe("extractive");
    expect(after.window).toHaveLength(4);
    expect(after.meta?.summaryFailures).toBe(0); // a committed compression starts the count again
  });

  it("backs off when another worker holds the lock", async () => {
    await fill(5, "。详细的说明".repeat(30));
    await sessions.acquireLock(ref, "someone-else", 60_000);
    const summarizer = new ScriptedSummarizer();
    expect(await manager({ summarizer, options: { maxTokens: 300 } }).maybeCompress()).toEqual({ compressed: false, reason: "locked" });
    expect(summarizer.requests).toHaveLength(0);
    expect(sessions.isLocked(ref)).toBe(true);
  });

  it("keeps messages appended while the summarizer runs", async () => {
    await fill(5, "。详细的说明".repeat(30));
    const summarizer = new ScriptedSummarizer(async (request) => {
      await sessions.append(ref, [{ id: "late", role: "user", content: "during", tokens: 5, importance: 0.5, ts: clock }], {
        ttlSeconds: 60,
      });
      return joinSummary(request);
    });
    const result = await manager({ summarizer, options: { maxTokens: 300 } }).maybeCompress();
    expect(result.compressed).toBe(true);
    const after = await sessions.read(ref);
    expect(after.window.at(-1)?.id).toBe("late");
    expect(after.window).toHaveLength(4 + 1);
  });

  it("does not commit over a reset or a concurrent compression", async () => {
    await fill(5, "。详细的说明".repeat(30));
    const resetting = new ScriptedSummarizer(async (request) => {
      await sessions.reset(ref, { keepSystem: true });
      return joinSummary(request);
    });
    expect(await manager({ summarizer: resetting, options: { maxTokens: 300 } }).maybeCompress()).toEqual({
      compressed: false,
      reason: "reset",
    });
    expect((await sessions.read(ref)).summary).toBeNull();

    await fill(5, "。详细的说明".repeat(30));
    const racing = new ScriptedSummarizer(async (request) => {
      const snapshot = await sessions.read(ref);
      await sessions.commitCompression(ref, {
        epoch: snapshot.meta!.epoch,
        expectedVersion: 0,
        prefixIds: [snapshot.window[0]!.id],
        summary: { text: "other", tokens: 1, version: 1, covered: 1, method: "llm", updatedAt: clock, lastRatio: 1 },
        archiveLimit: 10,
        ttlSeconds: 60,
      });
      return joinSummary(request);
    });
    expect(await manager({ summarizer: racing, options: { maxTokens: 300 } }).maybeCompress()).toEqual({
      compressed: false,
      reason: "version_changed",
    });
    expect((await sessions.read(ref)).summary?.text).toBe("other");
  });

  it("condenses a summary that is too long once, then cuts it to fit", async () => {
    await fill(5, "。详细的说明".repeat(30));
    const tooLong = "很长的摘要句子。".repeat(200);
    const condensing = new ScriptedSummarizer(
      () => ({ text: tooLong }),
      () => ({ text: "简短的摘要。" }),
    );
    const result = await manager({ summarizer: condensing, options: { maxTokens: 300, summaryMaxTokens: 100 } }).maybeCompress();
    expect(result).toMatchObject({ compressed: true });
    expect(condensing.requests).toHaveLength(2);
    expect(condensing.requests[1]?.messages).toEqual([]);
    expect(condensing.requests[1]?.previous?.text).toBe(tooLong);
    expect((await sessions.read(ref)).summary?.text).toBe("简短的摘要。");

    await fill(5, "。详细的说明".repeat(30));
    const stubborn = new ScriptedSummarizer(() => ({ text: tooLong }));
    const cut = await manager({ summarizer: stubborn, options: { maxTokens: 300, summaryMaxTokens: 100 } }).maybeCompress();
    expect(stubborn.requests).toHaveLength(2);
    const summary = (await sessions.read(ref)).summary!;
    expect(cut).toMatchObject({ compressed: true, summaryTokens: summary.tokens });
    expect(summary.tokens).toBeLessThanOrEqual(100);
    expect(counter.count(summary.text)).toBe(summary.tokens);
  });

  it("can be forced under the threshold", async () => {
    await fill(4);
    expect(await manager().maybeCompress({ force: true })).toMatchObject({ compressed: true, reason: "forced", removed: 4 });
  });
});

describe("the thin manager's acceptance checks, offline", () => {
  it("remembers across 20 rounds, compresses only over the threshold, and survives a restart", async () => {
    const offline = () => new ExtractiveSummarizer(counter);
    // The in-memory store scores by character-bigram cosine, a hashing-style score: it gets the gate a
    // hashing model calibrates to (cosine 0.27), not the default calibrated on the sentence model.
    const hashingGate = (0.27 - DENSE_ZERO_COSINE) / (1 - DENSE_ZERO_COSINE);
    const at = (maxTokens: number) => manager({ summarizer: offline(), options: { maxTokens, window: 8, minRecallScore: hashingGate } });

    await at(2000).add([{ role: "system", content: "你是客服小M" }]);
    await at(2000).add([{ role: "user", content: "我叫小明喜欢蓝色" }], { persist: true });
    await settle();
    for (let i = 0; i < 20; i++) {
      await at(2000).add([
        { role: "user", content: `第${i + 1}轮：随便聊聊` },
        { role: "assistant", content: `好的，第${i + 1}轮` },
      ]);
      expect(await at(2000).maybeCompress()).toMatchObject({ compressed: false, reason: "below_threshold" });
    }
    const context = await at(2000).getContext({ query: "用户叫什么名字?小明" });
    expect(context.messages.map((m) => m.content).join("\n")).toContain("小明");
    expect(context.messages[0]).toEqual({ role: "system", content: "你是客服小M" });
    const stored = await sessions.read(ref);
    expect(stored.window.some((m) => m.content.includes(DEFAULT_MEMORY_OPTIONS.factsLabel))).toBe(false);
    expect(stored.summary).toBeNull();

    // a lower threshold: now the same conversation is over it, and there is exactly one summary
    for (let i = 0; i < 3; i++) await at(300).maybeCompress();
    const compressed = await sessions.read(ref);
    expect(compressed.summary).toMatchObject({ method: "extractive" });
    expect(compressed.window.length).toBeLessThanOrEqual(4);
    expect(compressed.system.map((m) => m.content)).toEqual(["你是客服小M"]);

    // restart: a new manager over the same stores still recalls the fact
    const recalled = await manager({ summarizer: offline(), options: { minRecallScore: hashingGate } }).recall("用户喜欢什么颜色?蓝色");
    expect(recalled.map((r) => r.fact.text)).toContain("我叫小明喜欢蓝色");
  });
});
