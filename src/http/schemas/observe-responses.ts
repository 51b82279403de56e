/** @module Zod response schemas and examples of the observability routes (traces, stats) and the inline ?trace=true field. */
import { z } from "@hono/zod-openapi";
import { FactTypeSchema } from "./facts.ts";

/** What the observability routes (traces, stats) answer, and the `trace` field of `?trace=true`. */

const TraceCandidateSchema = z.object({
  id: z.string(),
  text: z.string(),
  type: FactTypeSchema,
  importance: z.number(),
  similarity: z.number().openapi({ description: "The index's own score in its retrieval mode" }),
  relevance: z.number().openapi({ description: "Calibrated relevance, 0..1 with 0 = unrelated: what the gate compares with minScore" }),
  score: z.number().openapi({ description: "Relevance plus the bounded tie-break (0 when dropped before scoring)" }),
  gate: z.enum(["pass", "reject"]).openapi({ description: "The relevance gate's verdict" }),
  kept: z.boolean(),
  reason: z.enum(["injected", "over_budget", "beyond_k", "gate_rejected", "type_filtered", "expired", "duplicate"]),
});

const TracePart = { tokens: z.number().int(), cap: z.number().int() };

export const TraceSchema = z
  .object({
    traceId: z.string(),
    kind: z.enum(["context", "chat", "proxy"]),
    sessionId: z.string(),
    userId: z.string().nullable(),
    requestId: z.string(),
    at: z.number().int().openapi({ description: "When the turn started, epoch ms" }),
    recall: z
      .object({
        query: z.string(),
        mode: z.string(),
        k: z.number().int(),
        topK: z.number().int(),
        minScore: z.number(),
        types: z.array(FactTypeSchema).nullable(),
        queryParts: z
          .number()
          .int()
          .optional()
          .openapi({ description: "Queries the recall asked the index: each wording on the dense or the sparse part of its one batch" }),
        candidates: z.array(TraceCandidateSchema),
      })
      .nullable(),
    context: z
      .object({
        budget: z.object({ total: z.number(), reserve: z.number(), available: z.number(), used: z.number(), overBudget: z.boolean() }),
        system: z.object({ ...TracePart, messages: z.number().int() }),
        summary: z
          .object({ ...TracePart, version: z.number().int(), covered: z.number().int(), method: z.string(), truncated: z.boolean() })
          .nullable(),
        summaryOmitted: z.boolean(),
        facts: z.object({ ...TracePart, ids: z.array(z.string()), omitted: z.number().int() }),
        window: z.object({ ...TracePart, messages: z.number().int(), ids: z.array(z.string()), omitted: z.number().int() }),
        total: z.number().int(),
      })
      .nullable(),
    roundTrips: z.array(z.object({ name: z.string(), ms: z.number(), ok: z.boolean() })),
    degraded: z.array(z.string()),
  })
  .openapi("Trace");

/** The `trace` field a route adds with `?trace=true` (or `X-Memory-Trace: 1`). */
export const InlineTrace = { trace: TraceSchema.optional().openapi({ description: "With `?trace=true`: this turn's trace" }) };

export const TraceListSchema = z
  .object({ sessionId: z.string(), traces: z.array(z.object({ traceId: z.string(), kind: z.string(), at: z.number().int() })) })
  .openapi("TraceList");

export const StatsSchema = z
  .object({
    activeSessions: z.number().int(),
    messages: z.number().int(),
    tokens: z.number().int(),
    sessionLength: z.object({ average: z.number(), p95: z.number(), sessions: z.number().int() }),
    facts: z.object({ total: z.number().int(), byType: z.record(z.string(), z.number().int()), truncated: z.boolean() }).nullable(),
    compressions: z.object({ count: z.number().int(), averageRatio: z.number() }),
    summarizerFailures: z.number().int(),
    recall: z.object({ contextReads: z.number().int(), queries: z.number().int(), hits: z.number().int(), hitRate: z.number() }),
    rateLimited: z.number().int(),
    requests: z.number().int(),
    latency: z.record(z.string(), z.object({ p50: z.number(), p95: z.number(), samples: z.number().int() })),
    alerts: z.array(
      z.object({ kind: z.literal("session_length_jump"), message: z.string(), lastHourAverage: z.number(), dayAverage: z.number() }),
    ),
  })
  .openapi("Stats");

const at = 1_764_590_400_000;
export const OBSERVE_EXAMPLES = {
  trace: {
    traceId: "tr_5f2c9a1e",
    kind: "context" as const,
    sessionId: "demo",
    userId: "ada",
    requestId: "req_81b3",
    at,
    recall: {
      query: "where do I live?",
      mode: "hybrid",
      k: 5,
      topK: 10,
      minScore: 0.24,
      types: null,
      queryParts: 3,
      candidates: [
        {
          id: "f1",
          text: "Lives in Lisbon",
          type: "fact" as const,
          importance: 0.6,
          similarity: 0.82,
          relevance: 0.61,
          score: 0.63,
          gate: "pass" as const,
          kept: true,
          reason: "injected" as const,
        },
      ],
    },
    context: {
      budget: { total: 4000, reserve: 500, available: 3500, used: 120, overBudget: false },
      system: { tokens: 20, cap: 3500, messages: 1 },
      summary: null,
      summaryOmitted: false,
      facts: { tokens: 12, cap: 700, ids: ["f1"], omitted: 0 },
      window: { tokens: 88, cap: 2768, messages: 4, ids: ["m1", "m2", "m3", "m4"], omitted: 0 },
      total: 120,
    },
    roundTrips: [
      { name: "redis.read", ms: 3.1, ok: true },
      { name: "vector.query", ms: 6.4, ok: true },
    ],
    degraded: [],
  },
  traceList: { sessionId: "demo", traces: [{ traceId: "tr_5f2c9a1e", kind: "context", at }] },
  stats: {
    activeSessions: 12,
    messages: 340,
    tokens: 21_500,
    sessionLength: { average: 28.3, p95: 71, sessions: 12 },
    facts: { total: 40, byType: { fact: 22, preference: 10, experience: 8 }, truncated: false },
    compressions: { count: 5, averageRatio: 0.21 },
    summarizerFailures: 0,
    recall: { contextReads: 120, queries: 90, hits: 61, hitRate: 0.6778 },
    rateLimited: 0,
    requests: 510,
    latency: { "GET /v1/sessions/:sessionId/context": { p50: 11, p95: 24, samples: 120 } },
    alerts: [],
  },
};
