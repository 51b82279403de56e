/** @module Tests of the calibrated gate of one recall query (queryGate). */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_RECALL_GATES,
  HYBRID_SCRIPT_GATES,
  hybridGate,
  IMPERSONAL_SCRIPT_GATES,
  queryCjkShare,
  queryGate,
} from "../../../../src/memory/facts/relevance.ts";
import type { RelevanceScale } from "../../../../src/memory/model.ts";

const OTHER_SCALES: readonly RelevanceScale[] = ["dense", "sparse", "rrf", "dbsf"];

describe("queryGate", () => {
  it("gives a question about the user the script's hybrid gate", () => {
    expect(queryGate("Where do I live?", "hybrid")).toBe(HYBRID_SCRIPT_GATES.latin);
    expect(queryGate("我住在哪里？", "hybrid")).toBeCloseTo(HYBRID_SCRIPT_GATES.cjk, 10);
    const mixed = "我的 PhD supervisor 是谁？";
    expect(queryGate(mixed, "hybrid")).toBeCloseTo(hybridGate(queryCjkShare(mixed)), 10);
  });

  it("asks more of a query that is not about the user, by its script", () => {
    expect(queryGate("Translate good morning into Spanish", "hybrid")).toBe(
      Math.max(HYBRID_SCRIPT_GATES.latin, IMPERSONAL_SCRIPT_GATES.latin),
    );
    expect(queryGate("帮我翻译这句话", "hybrid")).toBeCloseTo(Math.max(HYBRID_SCRIPT_GATES.cjk, IMPERSONAL_SCRIPT_GATES.cjk), 10);
    for (const [personal, impersonal] of [
      ["What is my job?", "What is a mortgage?"],
      ["我的生日是哪天？", "今年的圣诞节是星期几？"],
    ] as const) {
      expect(queryGate(impersonal, "hybrid")).toBeGreaterThan(queryGate(personal, "hybrid"));
    }
  });

  it("keeps each other scale's default gate whatever the query", () => {
    for (const scale of OTHER_SCALES) {
      expect(queryGate("Translate good morning into Spanish", scale)).toBe(DEFAULT_RECALL_GATES[scale]);
      expect(queryGate("Where do I live?", scale)).toBe(DEFAULT_RECALL_GATES[scale]);
    }
  });
});
