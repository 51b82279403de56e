/** @module Zod response schemas and examples of the session routes: stored messages, summary, window stats, state, history. */
import { z } from "@hono/zod-openapi";

/**
 * What the session routes answer, as zod schemas: the handlers' `c.json(...)` is checked against
 * them by the compiler (OpenAPIHono typed responses) and `/openapi.json` documents them. Timestamps
 * are epoch ms; ratios are rounded to 4 decimals (see `src/http/render.ts`).
 */

const Ms = z.number().int().openapi({ description: "Epoch milliseconds", example: 1764590400000 });

export const StoredRoleSchema = z.enum(["system", "user", "assistant", "tool"]);

export const ToolCallView = z
  .object({
    id: z.string(),
    type: z.literal("function"),
    function: z.object({ name: z.string(), arguments: z.string().openapi({ description: "JSON text, as the model wrote it" }) }),
  })
  .openapi("ToolCall");

const Metadata = z.record(z.string(), z.unknown()).openapi({ description: "As stored with the message or fact" });

export const StoredMessageSchema = z
  .object({
    id: z.string(),
    role: StoredRoleSchema,
    content: z.string(),
    name: z.string().optional(),
    tool_calls: z.array(ToolCallView).optional(),
    tool_call_id: z.string().optional(),
    tokens: z.number().int().openapi({ description: "Counted once, when it was stored" }),
    importance: z.number(),
    ts: Ms,
    metadata: Metadata.optional(),
  })
  .openapi("StoredMessage");

export const SummarySchema = z
  .object({
    text: z.string(),
    tokens: z.number().int(),
    version: z.number().int().openapi({ description: "Bumped by every committed compression" }),
    covered: z.number().int().openapi({ description: "Messages the summary covers in total" }),
    method: z.enum(["llm", "extractive"]),
    updatedAt: Ms,
    lastRatio: z.number().openapi({ description: "Tokens after / tokens before of the last compression" }),
  })
  .openapi("Summary");

export const WindowStatsSchema = z
  .object({
    messages: z.number().int().openapi({ description: "Pinned system messages plus window messages" }),
    tokens: z.number().int(),
    windowMessages: z.number().int(),
    windowTokens: z.number().int(),
    maxTokens: z.number().int().openapi({ description: "The compression threshold" }),
    utilization: z.number().openapi({ description: "windowTokens / maxTokens; above 1 a compression is due" }),
    avgImportance: z.number(),
  })
  .openapi("WindowStats");

const Overrides = z.object({
  window: z.number().int().optional(),
  maxTokens: z.number().int().optional(),
  keep: z.number().int().optional(),
  ttlSeconds: z.number().int().optional(),
});

export const SessionStateSchema = z
  .object({
    sessionId: z.string(),
    exists: z.boolean(),
    userId: z.string().nullable(),
    createdAt: Ms.nullable(),
    updatedAt: Ms.nullable(),
    settings: z.object({
      window: z.number().int(),
      maxTokens: z.number().int(),
      keep: z.number().int(),
      ttlSeconds: z.number().int(),
      overrides: Overrides.openapi({ description: "The per-session values; the others are the configured defaults" }),
    }),
    stats: WindowStatsSchema,
    summary: SummarySchema.nullable(),
    system: z.array(StoredMessageSchema),
    window: z.array(StoredMessageSchema).openapi({ description: "One page of the unsummarized messages, oldest first" }),
    page: z
      .object({
        offset: z.number().int().openapi({ description: "Offset of this page from the oldest window message" }),
        limit: z.number().int(),
        total: z.number().int().openapi({ description: "Messages in the window" }),
        next: z.number().int().nullable().openapi({ description: "Pass as `offset` for the next page; null at the end" }),
      })
      .openapi({ description: "Where the page sits in the window" }),
  })
  .openapi("SessionState");

export const SessionResetSchema = z
  .object({
    sessionId: z.string(),
    deleted: z.number().int().openapi({ description: "Messages removed" }),
    keptSystem: z.number().int().openapi({ description: "Pinned system messages kept" }),
  })
  .openapi("SessionReset");

export type SessionReset = z.infer<typeof SessionResetSchema>;

const Compressed = z.object({
  sessionId: z.string(),
  compressed: z.literal(true),
  reason: z.enum(["over_threshold", "forced"]),
  removed: z.number().int().openapi({ description: "Messages folded into the summary and removed from the window" }),
  removedTokens: z.number().int(),
  summaryTokens: z.number().int(),
  ratio: z.number(),
  version: z.number().int(),
  method: z.enum(["llm", "extractive"]),
  more: z.boolean().openapi({ description: "A pass reads a bounded chunk: true when the window is still over its threshold (call again)" }),
});

const NotCompressed = z.object({
  sessionId: z.string(),
  compressed: z.literal(false),
  reason: z.enum([
    "below_threshold",
    "nothing_to_compress",
    "locked",
    "summarizer_failed",
    "reset",
    "version_changed",
    "prefix_changed",
    "missing",
  ]),
  error: z.string().optional(),
});

export const CompressionSchema = z.discriminatedUnion("compressed", [Compressed, NotCompressed]).openapi("Compression");

export const SessionHistorySchema = z
  .object({
    sessionId: z.string(),
    summary: SummarySchema.nullable(),
    archived: z.array(StoredMessageSchema).openapi({ description: "The originals the summary replaced, oldest first" }),
    total: z.number().int(),
  })
  .openapi("SessionHistory");

const message = {
  id: "m1",
  role: "user" as const,
  content: "I moved to Berlin last month",
  tokens: 11,
  importance: 0.5,
  ts: 1764590400000,
};
const stats = { messages: 2, tokens: 31, windowMessages: 1, windowTokens: 11, maxTokens: 4000, utilization: 0.0028, avgImportance: 0.75 };
const summary = {
  text: "The user lives in Berlin.",
  tokens: 8,
  version: 1,
  covered: 12,
  method: "llm" as const,
  updatedAt: 1764590400000,
  lastRatio: 0.21,
};

export const SESSION_EXAMPLES = {
  message,
  stats,
  summary,
  state: {
    sessionId: "demo",
    exists: true,
    userId: "xiaoming",
    createdAt: 1764590000000,
    updatedAt: 1764590400000,
    settings: { window: 50, maxTokens: 4000, keep: 10, ttlSeconds: 2592000, overrides: { maxTokens: 4000 } },
    stats,
    summary,
    system: [
      { id: "sys-1", role: "system" as const, content: "You are a helpful assistant.", tokens: 20, importance: 1, ts: 1764590000000 },
    ],
    window: [message],
    page: { offset: 0, limit: 200, total: 1, next: null },
  },
  reset: { sessionId: "demo", deleted: 12, keptSystem: 1 },
  compression: {
    sessionId: "demo",
    compressed: true as const,
    reason: "forced" as const,
    removed: 12,
    removedTokens: 900,
    summaryTokens: 180,
    ratio: 0.2,
    version: 2,
    method: "llm" as const,
    more: false,
  },
  history: { sessionId: "demo", summary, archived: [message], total: 12 },
};
