import { describe, expect, it } from "vitest";
import type { Trace } from "../../../../src/memory/observe/index.ts";
import type { TraceStore } from "../../../../src/memory/ports/operations.ts";
import { FieldCipher, isSealed } from "../../../../src/stores/sealed/cipher.ts";
import { SealedTraceStore } from "../../../../src/stores/sealed/sealed-trace-store.ts";

const cipher = new FieldCipher([{ kid: "k1", secret: new Uint8Array(32).fill(9) }]);

/** Traces by tenant and id, as the Redis store keeps them (JSON). */
function storedTraces() {
  const stored = new Map<string, string>();
  const inner: TraceStore = {
    put: async (tenant, trace) => void stored.set(`${tenant}/${trace.traceId}`, JSON.stringify(trace)),
    get: async (tenant, traceId) => {
      const raw = stored.get(`${tenant}/${traceId}`);
      return raw === undefined ? null : (JSON.parse(raw) as Trace);
    },
    eraseUser: async () => ({ removed: 3, more: false }),
    recent: async () => [{ traceId: "tr1", kind: "chat", at: 1 }],
  };
  return { stored, sealed: new SealedTraceStore(inner, cipher) };
}

const recalled: Trace = {
  traceId: "tr1",
  kind: "chat",
  sessionId: "s1",
  userId: "ada",
  requestId: "req1",
  at: 5,
  recall: {
    query: "where does Ada sail",
    mode: "dense",
    k: 3,
    topK: 10,
    minScore: 0.2,
    types: ["fact"],
    candidates: [
      {
        id: "f1",
        text: "Ada sails in Oslo",
        type: "fact",
        importance: 0.5,
        similarity: 0.9,
        relevance: 0.8,
        score: 0.81,
        gate: "pass",
        kept: true,
        reason: "injected",
      },
    ],
  },
  context: null,
  roundTrips: [{ name: "redis.read", ms: 3, ok: true }],
  degraded: [],
};

describe("the sealed trace store", () => {
  it("stores the recall query and candidate texts sealed; ids, scores and timings clear", async () => {
    const { stored, sealed } = storedTraces();
    await sealed.put("acme", recalled, 60);
    const raw = stored.get("acme/tr1") ?? "";
    expect(raw).not.toContain("Oslo");
    expect(raw).not.toContain("where does Ada sail");
    const kept = JSON.parse(raw) as Trace;
    expect(isSealed(kept.recall?.query ?? "")).toBe(true);
    expect(kept.recall?.candidates[0]).toMatchObject({ id: "f1", score: 0.81, gate: "pass" });
    expect(kept.roundTrips).toEqual(recalled.roundTrips);
  });

  it("reads a trace back opened, and none as none", async () => {
    const { sealed } = storedTraces();
    await sealed.put("acme", recalled, 60);
    expect(await sealed.get("acme", "tr1")).toEqual(recalled);
    expect(await sealed.get("acme", "tr2")).toBeNull();
  });

  it("a trace without a recall has nothing to seal", async () => {
    const { stored, sealed } = storedTraces();
    const plain = { ...recalled, recall: null };
    await sealed.put("acme", plain, 60);
    expect(JSON.parse(stored.get("acme/tr1") ?? "")).toEqual(plain);
  });

  it("another tenant cannot open the texts", async () => {
    const { stored, sealed } = storedTraces();
    await sealed.put("acme", recalled, 60);
    stored.set("globex/tr1", stored.get("acme/tr1") ?? "");
    await expect(sealed.get("globex", "tr1")).rejects.toThrow();
  });

  it("passes erase and the recent list through", async () => {
    const { sealed } = storedTraces();
    expect(await sealed.eraseUser("acme", "ada", 10)).toEqual({ removed: 3, more: false });
    expect(await sealed.recent("acme", "s1", 5)).toEqual([{ traceId: "tr1", kind: "chat", at: 1 }]);
  });
});
