import { describe, expect, it } from "vitest";
import { MemoryError, UpstreamUnavailable } from "../../../../src/memory/errors.ts";
import type { Fact } from "../../../../src/memory/model.ts";
import { COUNTERS, type StoredMetrics } from "../../../../src/memory/observe/metrics.ts";
import { readStats, readTrace, recentTraces, STATS_FACTS_SCANNED } from "../../../../src/memory/observe/queries.ts";
import type { Trace } from "../../../../src/memory/observe/trace.ts";
import type { MetricsStore, TraceRef, TraceStore } from "../../../../src/memory/ports/operations.ts";
import { InMemoryFactStore } from "../../../support/fakes/facts.ts";
import { testDeps } from "../../../support/memory-deps.ts";

const counter = { count: (text: string) => text.length };

const trace = (traceId: string, sessionId: string): Trace => ({
  traceId,
  kind: "context",
  sessionId,
  userId: null,
  requestId: "r1",
  at: 1,
  recall: null,
  context: null,
  roundTrips: [],
  degraded: [],
});

/** Traces kept per tenant; `recent` lists a session's newest first, like the Redis store. */
class TraceTable implements TraceStore {
  readonly rows: { tenant: string; trace: Trace }[] = [];
  async put(tenant: string, t: Trace): Promise<void> {
    this.rows.push({ tenant, trace: t });
  }
  async eraseUser(): Promise<{ removed: number; more: boolean }> {
    return { removed: 0, more: false };
  }
  async get(tenant: string, traceId: string): Promise<Trace | null> {
    return this.rows.find((r) => r.tenant === tenant && r.trace.traceId === traceId)?.trace ?? null;
  }
  async recent(tenant: string, sessionId: string, limit: number): Promise<TraceRef[]> {
    return this.rows
      .filter((r) => r.tenant === tenant && r.trace.sessionId === sessionId)
      .reverse()
      .slice(0, limit)
      .map((r) => ({ traceId: r.trace.traceId, kind: r.trace.kind, at: r.trace.at }));
  }
}

describe("readTrace", () => {
  it("returns the tenant's stored trace", async () => {
    const traces = new TraceTable();
    await traces.put("acme", trace("t1", "s1"));
    expect(await readTrace(testDeps({ counter, traces }), "t1")).toMatchObject({ traceId: "t1", sessionId: "s1" });
  });

  it("is not_found for another tenant's trace, an unknown id, or when traces are off", async () => {
    const traces = new TraceTable();
    await traces.put("other", trace("t1", "s1"));
    await expect(readTrace(testDeps({ counter, traces }), "t1")).rejects.toMatchObject({ kind: "not_found" });
    await expect(readTrace(testDeps({ counter, traces }), "t2")).rejects.toBeInstanceOf(MemoryError);
    await expect(readTrace(testDeps({ counter, traces: null }), "t1")).rejects.toMatchObject({ kind: "not_found" });
  });
});

describe("recentTraces", () => {
  it("lists the session's traces newest first, up to the limit", async () => {
    const traces = new TraceTable();
    for (const id of ["t1", "t2", "t3"]) await traces.put("acme", trace(id, "s1"));
    await traces.put("acme", trace("t4", "s2"));
    const refs = await recentTraces(testDeps({ counter, traces }), "s1", 2);
    expect(refs.map((r) => r.traceId)).toEqual(["t3", "t2"]);
  });

  it("is empty when tracing is off", async () => {
    expect(await recentTraces(testDeps({ counter }), "s1", 5)).toEqual([]);
  });
});

describe("readStats", () => {
  const stored = (): StoredMetrics => ({
    counters: { ...(Object.fromEntries(COUNTERS.map((c) => [c, 0])) as StoredMetrics["counters"]), messages: 12, requests: 3 },
    ratioSum: 0,
    sessionLengths: [4, 8],
    activeSessions: 2,
    lastHour: { hour: 0, messages: 0, sessions: 0 },
    dayBefore: { messages: 0, sessions: 0 },
    latency: {},
  });

  function metricsStore(): MetricsStore & { reads: { tenant: string; at: number }[] } {
    const reads: { tenant: string; at: number }[] = [];
    return {
      reads,
      async record() {},
      async read(tenant, at) {
        reads.push({ tenant, at });
        return stored();
      },
    };
  }

  const fact = (id: string, type: Fact["type"]): Fact => ({
    id,
    text: id,
    type,
    importance: 0.5,
    createdAt: 1,
    updatedAt: 1,
    lastAccessedAt: 1,
    accessCount: 0,
    version: 1,
  });

  it("reads the tenant's counters at the current time and counts its facts per type", async () => {
    const facts = new InMemoryFactStore();
    await facts.upsert({ tenant: "acme", userId: "u1" }, [fact("a", "preference"), fact("b", "preference")]);
    await facts.upsert({ tenant: "acme", userId: "u2" }, [fact("c", "context")]);
    await facts.upsert({ tenant: "other", userId: "u1" }, [fact("d", "context")]);
    const metrics = metricsStore();

    const stats = await readStats(testDeps({ counter, facts, metricsStore: metrics, now: () => 42 }));

    expect(metrics.reads).toEqual([{ tenant: "acme", at: 42 }]);
    expect(stats).toMatchObject({ messages: 12, requests: 3, activeSessions: 2, sessionLength: { sessions: 2, average: 6 } });
    expect(stats.facts).toMatchObject({ total: 3, truncated: false, byType: { preference: 2, context: 1 } });
  });

  it("stops counting facts past the scan limit and says so", async () => {
    const facts = new InMemoryFactStore();
    const many = Array.from({ length: STATS_FACTS_SCANNED + 50 }, (_, i) => fact(`f${i}`, "preference"));
    await facts.upsert({ tenant: "acme", userId: "u1" }, many);

    const stats = await readStats(testDeps({ counter, facts, metricsStore: metricsStore() }));

    expect(stats.facts).toMatchObject({ total: STATS_FACTS_SCANNED, truncated: true });
  });

  it("has no fact counts without long-term memory", async () => {
    const stats = await readStats(testDeps({ counter, facts: null, metricsStore: metricsStore() }));
    expect(stats.facts).toBeNull();
  });

  it("needs a metrics store", async () => {
    await expect(readStats(testDeps({ counter, metricsStore: null }))).rejects.toBeInstanceOf(UpstreamUnavailable);
  });
});
