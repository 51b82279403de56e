import { describe, expect, it } from "vitest";
import { isEmptyBatch, type MetricsBatch, RequestMetrics } from "../../../../src/memory/observe/metrics.ts";

const empty = (): MetricsBatch => ({ counters: {}, ratioSum: 0, sessions: {}, latency: null });

describe("isEmptyBatch", () => {
  it("is true for a batch nothing was added to", () => {
    expect(isEmptyBatch(empty())).toBe(true);
    expect(isEmptyBatch(new RequestMetrics().take())).toBe(true);
  });

  it("is false as soon as one part holds something", () => {
    expect(isEmptyBatch({ ...empty(), counters: { requests: 1 } })).toBe(false);
    expect(isEmptyBatch({ ...empty(), ratioSum: 0.5 })).toBe(false);
    expect(isEmptyBatch({ ...empty(), sessions: { s1: 2 } })).toBe(false);
    expect(isEmptyBatch({ ...empty(), latency: { route: "GET /v1/x", ms: 0 } })).toBe(false);
  });

  it("stays true for additions a recorder ignores", () => {
    const metrics = new RequestMetrics();
    metrics.count("requests", 0);
    metrics.sessionGrew("s1", 0);
    expect(isEmptyBatch(metrics.take())).toBe(true);
  });
});

describe("RequestMetrics", () => {
  it("counts sessions named like Object.prototype's members as ordinary ids", () => {
    const metrics = new RequestMetrics();
    metrics.sessionGrew("constructor", 2);
    metrics.sessionGrew("__proto__", 1);
    metrics.sessionGrew("toString", 3);
    metrics.sessionGrew("constructor", 1);
    const { sessions } = metrics.take();
    expect(Object.entries(sessions).sort()).toEqual([
      ["__proto__", 1],
      ["constructor", 3],
      ["toString", 3],
    ]);
  });
});
