import { describe, expect, it } from "vitest";
import type { Summarizer } from "../../../../src/memory/ports/llm.ts";
import { clock, counter, logs, manager, ref, sessions, useSessionMemoryFixture } from "../../../support/session-memory-fixture.ts";
import { joinSummary, ScriptedSummarizer } from "../../../support/fakes/llm.ts";

useSessionMemoryFixture();

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
