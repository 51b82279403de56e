import { describe, expect, it } from "vitest";
import { compressView, recalledView, round4, statsView, summaryView } from "../../../src/http/render.ts";
import type { WindowStats } from "../../../src/memory/context/index.ts";
import { createFact } from "../../../src/memory/facts/identity.ts";
import type { CompressResult } from "../../../src/memory/sessions/index.ts";

const fact = createFact("f1", { text: "Ada sails", type: "fact", importance: 0.5 }, 1);

describe("response rounding", () => {
  it("round4 rounds to 4 decimals", () => {
    expect(round4(0.6799999999999999)).toBe(0.68);
    expect(round4(0.12345)).toBe(0.1235);
    expect(round4(-0.00004)).toBe(-0);
    expect(round4(3)).toBe(3);
  });

  it("a recalled fact lists the fact's fields, then its rounded scores", () => {
    const view = recalledView({ fact, similarity: 0.333333, relevance: 0.5, score: 0.666666 });
    expect(view).toEqual({ ...fact, score: 0.6667, similarity: 0.3333 });
    expect(view).not.toHaveProperty("relevance");
  });

  it("a summary's last ratio is rounded; no summary stays none", () => {
    const summary = { text: "t", tokens: 1, version: 1, covered: 1, method: "llm" as const, updatedAt: 1, lastRatio: 0.123456 };
    expect(summaryView(summary)).toEqual({ ...summary, lastRatio: 0.1235 });
    expect(summaryView(null)).toBeNull();
  });

  it("a compression's ratio is rounded only when it compressed", () => {
    const done: CompressResult = {
      compressed: true,
      reason: "forced",
      more: false,
      removed: 2,
      removedTokens: 20,
      summaryTokens: 5,
      ratio: 0.987654,
      version: 1,
      method: "llm",
    };
    expect(compressView(done)).toEqual({ ...done, ratio: 0.9877 });
    const skipped: CompressResult = { compressed: false, reason: "locked" };
    expect(compressView(skipped)).toBe(skipped);
  });

  it("window stats round the utilization and average importance, nothing else", () => {
    const stats: WindowStats = {
      messages: 3,
      tokens: 31,
      windowMessages: 2,
      windowTokens: 21,
      maxTokens: 63,
      utilization: 0.333333,
      avgImportance: 0.55555,
    };
    expect(statsView(stats)).toEqual({ ...stats, utilization: 0.3333, avgImportance: 0.5556 });
  });
});
