import { describe, expect, it } from "vitest";
import type { Trace } from "../../../src/memory/observe/index.ts";
import type { MetricsBatch } from "../../../src/memory/observe/metrics.ts";
import type { MetricsStore, TraceStore } from "../../../src/memory/ports/operations.ts";
import { RequestObservation, requestLogger, type RequestOutcome } from "../../../src/worker/request-observation.ts";

const NOW = 1_800_000_000_000;
const ok: RequestOutcome = { route: "/v1/sessions/{sessionId}/context", method: "POST", status: 200, durationMs: 12 };

/** An observation over recording stores; `settle` waits for everything handed to the background. */
function observed(o: { traceTtlSeconds?: number; stores?: boolean } = {}) {
  const work: Promise<unknown>[] = [];
  const logs: { message: string; data: Record<string, unknown> | undefined }[] = [];
  const traces: { tenant: string; trace: Trace; ttl: number }[] = [];
  const batches: { tenant: string; batch: MetricsBatch }[] = [];
  const unused = (): never => {
    throw new Error("not used by an observation");
  };
  const traceStore: TraceStore = {
    put: async (tenant, trace, ttl) => void traces.push({ tenant, trace, ttl }),
    eraseUser: unused,
    get: unused,
    recent: unused,
  };
  const metricsStore: MetricsStore = { record: async (tenant, batch) => void batches.push({ tenant, batch }), read: unused };
  const log = (message: string, data?: Record<string, unknown>) => logs.push({ message, data });
  const observation = new RequestObservation({
    requestId: "req1",
    traceTtlSeconds: o.traceTtlSeconds ?? 60,
    traces: o.stores === false ? null : traceStore,
    metrics: o.stores === false ? null : metricsStore,
    logger: { debug: log, info: log, warn: log, error: log },
    now: () => NOW,
    newId: () => "tr1",
    background: (p) => work.push(p),
  });
  const settle = async (): Promise<void> => {
    for (let done = 0; done < work.length; done++) await work[done];
  };
  return { observation, logs, traces, batches, settle };
}

describe("a request's observation", () => {
  it("logs one line and writes the metrics and the trace after the response", async () => {
    const o = observed();
    o.observation.tenant = "acme";
    expect(o.observation.beginTrace("context", { sessionId: "s1", userId: "ada" }, false)).toBe("tr1");
    o.observation.finish(ok);
    // nothing happens on the response path
    expect(o.logs).toEqual([]);
    await o.settle();
    expect(o.logs).toEqual([
      { message: "request", data: { method: "POST", route: ok.route, status: 200, durationMs: 12, traceId: "tr1" } },
    ]);
    expect(o.batches).toHaveLength(1);
    expect(o.batches[0]?.batch.counters).toEqual({ requests: 1 });
    expect(o.batches[0]?.batch.latency).toEqual({ route: `POST ${ok.route}`, ms: 12 });
    expect(o.traces.map((t) => [t.tenant, t.trace.traceId, t.trace.sessionId, t.ttl])).toEqual([["acme", "tr1", "s1", 60]]);
  });

  it("a refused request is logged but writes nothing; a rate-limited one is counted", async () => {
    const refused = observed();
    refused.observation.tenant = "acme";
    refused.observation.finish({ ...ok, status: 400 });
    await refused.settle();
    expect(refused.logs).toHaveLength(1);
    expect(refused.batches).toEqual([]);

    const limited = observed();
    limited.observation.tenant = "acme";
    limited.observation.finish({ ...ok, status: 429 });
    await limited.settle();
    expect(limited.batches[0]?.batch.counters).toEqual({ requests: 1, rateLimited: 1 });
  });

  it("writes nothing for a request that never named its tenant", async () => {
    const o = observed();
    o.observation.finish(ok);
    await o.settle();
    expect(o.logs).toHaveLength(1);
    expect(o.batches).toEqual([]);
  });

  it("tracing off: no trace unless the client asked for it inline, and an inline one is not stored", async () => {
    const o = observed({ traceTtlSeconds: 0 });
    o.observation.tenant = "acme";
    expect(o.observation.beginTrace("chat", { sessionId: "s1" }, false)).toBeNull();
    expect(o.observation.inlineTrace()).toBeNull();
    expect(o.observation.beginTrace("chat", { sessionId: "s1" }, true)).toBe("tr1");
    expect(o.observation.inlineTrace()).toMatchObject({ traceId: "tr1", kind: "chat", sessionId: "s1", requestId: "req1", at: NOW });
    o.observation.finish(ok);
    await o.settle();
    expect(o.traces).toEqual([]);
  });

  it("counts of background work are written once the request finished, not before", async () => {
    const o = observed();
    o.observation.tenant = "acme";
    o.observation.metrics.count("compressions");
    o.observation.flushMetrics();
    await o.settle();
    expect(o.batches).toEqual([]);
    o.observation.finish(ok);
    await o.settle();
    expect(o.batches.map((b) => b.batch.counters)).toEqual([{ compressions: 1, requests: 1 }]);
    o.observation.metrics.count("compressions");
    o.observation.flushMetrics();
    await o.settle();
    expect(o.batches.map((b) => b.batch.counters)).toEqual([{ compressions: 1, requests: 1 }, { compressions: 1 }]);
  });

  it("the log context follows the tenant", () => {
    const o = observed();
    o.observation.tenant = "acme";
    expect(o.observation.logContext).toEqual({ tenant: "acme" });
  });

  it("a request logger adds the request's context to every line; a line's own fields win", () => {
    const lines: unknown[] = [];
    const base = {
      debug: (m: string, d?: Record<string, unknown>) => lines.push(["debug", m, d]),
      info: (m: string, d?: Record<string, unknown>) => lines.push(["info", m, d]),
      warn: (m: string, d?: Record<string, unknown>) => lines.push(["warn", m, d]),
      error: (m: string, d?: Record<string, unknown>) => lines.push(["error", m, d]),
    };
    let session = "s1";
    const logger = requestLogger(base, () => ({ requestId: "req1", session }));
    logger.info("one", { a: 1 });
    session = "s2";
    logger.error("two", { session: "own" });
    expect(lines).toEqual([
      ["info", "one", { requestId: "req1", session: "s1", a: 1 }],
      ["error", "two", { requestId: "req1", session: "own" }],
    ]);
  });
});
