import { describe, expect, it } from "vitest";
import { RequestMetrics, lengthJumpAlerts, quantile, type MetricsBatch } from "../../../../src/memory/observe/metrics.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import type { MemoryLogger, MetricsStore } from "../../../../src/memory/ports/operations.ts";
import { selectRecalled } from "../../../../src/memory/facts/recall.ts";
import { denseRelevance } from "../../../../src/memory/facts/relevance.ts";
import { explainRecall, TurnTrace } from "../../../../src/memory/observe/trace.ts";
import type { Fact } from "../../../../src/memory/model.ts";
import { RequestObservation } from "../../../../src/worker/request-observation.ts";

const NOW = 1_700_000_000_000;
const fact = (id: string, overrides: Partial<Fact> = {}): Fact => ({
  id,
  text: `fact ${id}`,
  type: "fact",
  importance: 0.5,
  createdAt: NOW,
  updatedAt: NOW,
  lastAccessedAt: NOW,
  accessCount: 0,
  version: 1,
  ...overrides,
});

describe("quantile", () => {
  it("is the nearest-rank value", () => {
    expect(quantile([], 0.95)).toBe(0);
    expect(quantile([5], 0.5)).toBe(5);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(
      quantile(
        Array.from({ length: 100 }, (_, i) => 100 - i),
        0.95,
      ),
    ).toBe(95);
  });
});

describe("session length jump", () => {
  it("fires when the last hour's average is 3x the day's, not below, and not on a handful of messages", () => {
    const day = { messages: 40, sessions: 10 };
    expect(lengthJumpAlerts({ hour: 0, messages: 100, sessions: 10 }, day)).toEqual([]);
    expect(lengthJumpAlerts({ hour: 0, messages: 120, sessions: 1 }, day)[0]).toMatchObject({
      kind: "session_length_jump",
      lastHourAverage: 120,
      dayAverage: 4,
    });
    expect(lengthJumpAlerts({ hour: 0, messages: 12, sessions: 1 }, { messages: 4, sessions: 4 })).toEqual([]);
    expect(lengthJumpAlerts({ hour: 0, messages: 500, sessions: 1 }, { messages: 0, sessions: 0 })).toEqual([]);
  });
});

describe("explainRecall", () => {
  it("shows every candidate with the recall's own verdict, in the store's order", () => {
    const options = { ...DEFAULT_MEMORY_OPTIONS, minRecallScore: 0.5 };
    const kept = fact("kept");
    const long = NOW - 400 * 86_400_000;
    const candidates = [
      { fact: kept, similarity: 0.95 },
      { fact: kept, similarity: 0.95 },
      { fact: fact("next"), similarity: 0.9 },
      { fact: fact("weak"), similarity: 0.52 },
      { fact: fact("pref", { type: "preference" }), similarity: 0.9 },
      { fact: fact("gone", { createdAt: long, updatedAt: long, lastAccessedAt: long, type: "fact", importance: 0.1 }), similarity: 0.9 },
    ];
    const outcome = {
      ...selectRecalled(candidates, { k: 1, minScore: 0.5, scale: "dense", types: ["fact"], now: NOW, options }),
      candidates,
    };
    const explained = explainRecall(outcome);
    expect(explained.map((c) => [c.id, c.kept, c.reason, c.gate])).toEqual([
      ["kept", true, "injected", "pass"],
      ["kept", false, "duplicate", "pass"],
      ["next", false, "beyond_k", "pass"],
      ["weak", false, "gate_rejected", "reject"],
      ["pref", false, "type_filtered", "pass"],
      ["gone", false, "expired", "pass"],
    ]);
    // Relevance is the dense mapping of the similarity (the mapping itself is tested with recall).
    expect(explained[0]).toMatchObject({ similarity: 0.95, relevance: expect.closeTo(denseRelevance(0.95), 3), importance: 0.5 });
    expect(explained[2]?.score).toBeGreaterThan(0.5);
  });
});

describe("TurnTrace", () => {
  it("records how many query parts the recall sent, when the store said", () => {
    const recalled = (queryParts?: number) => {
      const trace = new TurnTrace();
      trace.begin({ traceId: "t1", kind: "context", sessionId: "s1", requestId: "r1", at: NOW });
      const outcome = selectRecalled([], { k: 3, scale: "hybrid", now: NOW, options: DEFAULT_MEMORY_OPTIONS });
      trace.recall({ query: "where do I live?", k: 3, topK: 14, outcome: queryParts === undefined ? outcome : { ...outcome, queryParts } });
      return trace.snapshot()?.recall;
    };
    expect(recalled(3)?.queryParts).toBe(3);
    expect(recalled()).not.toHaveProperty("queryParts");
  });
});

describe("RequestObservation", () => {
  const silent: MemoryLogger = { debug() {}, info() {}, warn() {}, error() {} };
  function observation() {
    const batches: MetricsBatch[] = [];
    const jobs: Promise<unknown>[] = [];
    const store: MetricsStore = { record: async (_t, batch) => void batches.push(batch), read: () => Promise.reject(new Error("unused")) };
    const o = new RequestObservation({
      requestId: "r1",
      traceTtlSeconds: 60,
      traces: null,
      metrics: store,
      logger: silent,
      now: () => NOW,
      newId: () => "t1",
      background: (w) => void jobs.push(w),
    });
    o.tenant = "acme";
    return { o, batches, settle: () => Promise.all(jobs) };
  }

  it("counts a 429 it answers, skips other refusals, and writes one batch per request", async () => {
    const limited = observation();
    limited.o.finish({ route: "/v1/x", method: "GET", status: 429, durationMs: 3 });
    // the writes wait a timer turn, so the response goes out before they are built and sent
    expect(limited.batches).toEqual([]);
    await Promise.resolve();
    expect(limited.batches).toEqual([]);
    await limited.settle();
    expect(limited.batches).toHaveLength(1);
    expect(limited.batches[0]?.counters).toEqual({ requests: 1, rateLimited: 1 });
    expect(limited.batches[0]?.latency).toEqual({ route: "GET /v1/x", ms: 3 });

    const refused = observation();
    refused.o.finish({ route: "/v1/x", method: "GET", status: 400, durationMs: 1 });
    await refused.settle();
    expect(refused.batches).toEqual([]);
  });

  it("keeps what background work counts before the end for the request's batch, and writes what it counts after", async () => {
    const { o, batches, settle } = observation();
    o.metrics.count("contextReads");
    o.flushMetrics(); // a background job ending before the response: nothing written yet
    o.finish({ route: "/v1/x", method: "GET", status: 200, durationMs: 1 });
    o.metrics.count("compressions"); // counted before the request's writes go: it joins them
    o.flushMetrics();
    await settle();
    o.metrics.compression(0.25); // after: a batch of its own
    o.flushMetrics();
    await settle();
    expect(batches.map((b) => b.counters)).toEqual([{ contextReads: 1, compressions: 1, requests: 1 }, { compressions: 1 }]);
    expect(batches[1]?.ratioSum).toBe(0.25);
  });

  it("has no trace id when tracing is off and nobody asked", () => {
    const off = new RequestObservation({
      requestId: "r",
      traceTtlSeconds: 0,
      traces: null,
      metrics: null,
      logger: silent,
      now: () => NOW,
      newId: () => "t",
      background: () => {},
    });
    expect(off.beginTrace("context", { sessionId: "s" }, false)).toBeNull();
    expect(off.trace.active).toBe(false);
    expect(off.beginTrace("context", { sessionId: "s" }, true)).toBe("t");
    expect(off.inlineTrace()?.traceId).toBe("t");
  });
});

describe("RequestMetrics", () => {
  it("adds messages per session and in total", () => {
    const m = new RequestMetrics();
    m.sessionGrew("a", 2);
    m.sessionGrew("a", 1);
    m.sessionGrew("b", 0);
    expect(m.take()).toMatchObject({ counters: { messages: 3 }, sessions: { a: 3 } });
  });
});
