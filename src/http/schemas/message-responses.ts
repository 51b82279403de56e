/** @module Zod response schemas and examples of the append-messages and get-context routes. */
import { z } from "@hono/zod-openapi";
import { InlineTrace } from "./observe-responses.ts";
import { FactTypeSchema } from "./facts.ts";
import { SESSION_EXAMPLES, StoredRoleSchema, ToolCallView, WindowStatsSchema } from "./session-responses.ts";

/** What `POST .../messages` and `GET .../context` answer. */

export const AppendAnswerSchema = z
  .object({
    sessionId: z.string(),
    added: z
      .array(
        z.object({
          id: z.string(),
          tokens: z.number().int(),
          duplicate: z.boolean().openapi({ description: "The id was already stored: nothing was written" }),
        }),
      )
      .openapi({ description: "One entry per input message, in order" }),
    stats: WindowStatsSchema,
    compressionDue: z.boolean().openapi({ description: "The window passed maxTokens: a compression is scheduled in the background" }),
    facts: z.array(z.string()).openapi({ description: "Ids of the facts queued for persisted user messages" }),
  })
  .openapi("AppendResult");

export type AppendAnswer = z.infer<typeof AppendAnswerSchema>;

export const ContextMessageSchema = z
  .object({
    role: StoredRoleSchema,
    content: z.string(),
    name: z.string().optional(),
    tool_calls: z.array(ToolCallView).optional(),
    tool_call_id: z.string().optional(),
  })
  .openapi("ContextMessage");

export const SectionTokensSchema = z
  .object({
    system: z.number().int(),
    summary: z.number().int(),
    facts: z.number().int(),
    window: z.number().int(),
    total: z.number().int(),
  })
  .openapi("SectionTokens");

const Budget = z.object({
  total: z.number().int(),
  reserve: z.number().int().openapi({ description: "Held back for the model's reply" }),
  available: z.number().int(),
  caps: z.object({ system: z.number().int(), summary: z.number().int(), facts: z.number().int(), window: z.number().int() }),
  windowAllowance: z.number().int(),
  used: z.number().int(),
  overBudget: z.boolean().openapi({ description: "The pinned system messages alone exceed `available` (they are never dropped)" }),
});

export const ContextAnswerSchema = z
  .object({
    sessionId: z.string(),
    messages: z
      .array(ContextMessageSchema)
      .openapi({ description: "system -> summary -> recalled facts -> window: send these to the LLM" }),
    tokens: SectionTokensSchema,
    budget: Budget,
    recalled: z.array(z.object({ id: z.string(), text: z.string(), type: FactTypeSchema, score: z.number(), similarity: z.number() })),
    summary: z
      .object({
        version: z.number().int(),
        tokens: z.number().int(),
        covered: z.number().int(),
        method: z.enum(["llm", "extractive"]),
        truncated: z.boolean(),
      })
      .nullable()
      .openapi({ description: "The summary as shown (null when there is none or it did not fit at all)" }),
    omitted: z
      .object({ window: z.number().int(), facts: z.number().int(), summary: z.boolean() })
      .openapi({ description: "What did not fit the budget" }),
    stats: WindowStatsSchema,
    degraded: z.array(z.literal("facts")).optional().openapi({ description: "Parts that failed without failing the request" }),
    ...InlineTrace,
  })
  .openapi("Context");

export type ContextAnswer = z.infer<typeof ContextAnswerSchema>;

export const MESSAGE_EXAMPLES = {
  append: {
    sessionId: "demo",
    added: [{ id: "m1", tokens: 11, duplicate: false }],
    stats: SESSION_EXAMPLES.stats,
    compressionDue: false,
    facts: [],
  },
  context: {
    sessionId: "demo",
    messages: [
      { role: "system" as const, content: "You are a helpful assistant." },
      { role: "system" as const, content: "Known facts about the user:\n- lives in Berlin" },
      { role: "user" as const, content: "Where do I live?" },
    ],
    tokens: { system: 20, summary: 0, facts: 12, window: 9, total: 41 },
    budget: {
      total: 8000,
      reserve: 1200,
      available: 6800,
      caps: { system: 1200, summary: 800, facts: 2400, window: 2400 },
      windowAllowance: 6768,
      used: 41,
      overBudget: false,
    },
    recalled: [{ id: "f_3b1c9a0e5d7f2a46", text: "lives in Berlin", type: "fact" as const, score: 0.8123, similarity: 0.7911 }],
    summary: null,
    omitted: { window: 0, facts: 0, summary: false },
    stats: SESSION_EXAMPLES.stats,
  },
};
