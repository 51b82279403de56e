import { describe, expect, it } from "vitest";
import { ExtractiveSummarizer } from "../../../../src/memory/compression/extractive-summary.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import { DENSE_ZERO_COSINE } from "../../../../src/memory/facts/relevance.ts";
import { counter, manager, ref, sessions, settle, useSessionMemoryFixture } from "../../../support/session-memory-fixture.ts";

useSessionMemoryFixture();

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
