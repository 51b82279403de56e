/** @module Zod response schemas and examples of the user routes: export, erase, session list and restore. */
import { z } from "@hono/zod-openapi";
import { FACT_EXAMPLES, FactSchema } from "./fact-responses.ts";
import { SESSION_EXAMPLES, StoredMessageSchema, SummarySchema, ToolCallView } from "./session-responses.ts";

/** What the user routes (export, erase, session list) answer. */

const Ms = z.number().int().openapi({ description: "Epoch milliseconds", example: 1764590400000 });

export const TurnOutcomeSchema = z
  .object({
    id: z.string().openapi({ description: "Id of the stored reply message" }),
    content: z.string(),
    tool_calls: z.array(ToolCallView).optional(),
    finishReason: z.string().nullable(),
    model: z.string(),
  })
  .openapi("TurnOutcome");

const SessionMeta = z.object({
  userId: z.string().optional(),
  createdAt: Ms,
  updatedAt: Ms,
  epoch: z.number().int().openapi({ description: "Bumped by every reset" }),
  summaryFailures: z.number().int(),
});

const ExportedSession = z.object({
  sessionId: z.string(),
  system: z.array(StoredMessageSchema),
  window: z.array(StoredMessageSchema),
  summary: SummarySchema.nullable(),
  archived: z.array(StoredMessageSchema),
  notes: z.record(z.string(), z.string()),
  scratchpad: z.array(z.string()),
  turns: z.array(TurnOutcomeSchema).openapi({ description: "Recorded turn outcomes (what retries are answered with)" }),
  meta: SessionMeta.nullable(),
});

export const UserExportSchema = z
  .object({
    userId: z.string(),
    exportedAt: Ms,
    sessions: z.array(ExportedSession),
    facts: z.array(FactSchema),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last one" }),
  })
  .openapi("UserExport");

export const UserErasedSchema = z
  .object({
    userId: z.string(),
    receiptId: z.string().openapi({ description: "Names the erase from its first request to its last; the audit log keeps the receipt" }),
    deleted: z.number().int().openapi({ description: "Items this request removed" }),
    done: z.boolean().openapi({ description: "false (with 202): more is left, call again" }),
    erasedAt: Ms.openapi({ description: "Epoch ms of this request's tombstone" }),
    removed: z
      .object({
        sessions: z.number().int(),
        messages: z.number().int(),
        archives: z.number().int(),
        notes: z.number().int(),
        facts: z.number().int(),
        backups: z.number().int().openapi({ description: "Backup snapshots removed (0 without a BACKUPS bucket)" }),
        traces: z.number().int().openapi({ description: "Stored turn traces removed (they hold queries and recalled fact texts)" }),
      })
      .openapi({
        description: "What the whole erase removed so far; a repeated erase that found nothing answers the last finished erase's receipt",
      }),
  })
  .openapi("EraseReceipt");

export type UserErased = z.infer<typeof UserErasedSchema>;

export const UserSessionsSchema = z
  .object({
    userId: z.string(),
    sessions: z.array(
      z.object({
        sessionId: z.string(),
        createdAt: Ms,
        updatedAt: Ms.openapi({ description: "Last write" }),
        messages: z.number().int().openapi({ description: "Conversation messages so far (summarized ones included, system excluded)" }),
        title: z.string().nullable().openapi({ description: "The first user message, clipped; null when there is none yet" }),
      }),
    ),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null at the end" }),
  })
  .openapi("UserSessions");

const { message, summary } = SESSION_EXAMPLES;

export const USER_EXAMPLES = {
  export: {
    userId: "xiaoming",
    exportedAt: 1764590400000,
    sessions: [
      {
        sessionId: "demo",
        system: [],
        window: [message],
        summary,
        archived: [],
        notes: { goal: "book a flight to Lisbon" },
        scratchpad: [],
        turns: [{ id: "r1", content: "You live in Berlin.", finishReason: "stop", model: "gpt-4o-mini" }],
        meta: { userId: "xiaoming", createdAt: 1764590000000, updatedAt: 1764590400000, epoch: 0, summaryFailures: 0 },
      },
    ],
    facts: [FACT_EXAMPLES.fact],
    nextCursor: null,
  },
  erased: {
    userId: "xiaoming",
    receiptId: "er_3b1f0c2a9d",
    deleted: 31,
    done: true,
    erasedAt: 1764590400000,
    removed: { sessions: 2, messages: 20, archives: 3, notes: 1, facts: 1, backups: 7, traces: 4 },
  },
  sessions: {
    userId: "xiaoming",
    sessions: [
      { sessionId: "demo", createdAt: 1764590000000, updatedAt: 1764590400000, messages: 14, title: "I moved to Berlin last month" },
    ],
    nextCursor: null,
  },
};

export const RestoredSchema = z
  .object({
    userId: z.string(),
    snapshotAt: Ms.openapi({ description: "When the snapshot was taken, epoch ms" }),
    restored: z.number().int().openapi({ description: "Facts written back (they were missing)" }),
    present: z.number().int().openapi({ description: "Facts of the snapshot that exist already, left as they are" }),
  })
  .openapi("Restored");

export type Restored = z.infer<typeof RestoredSchema>;

export const RESTORE_EXAMPLE: Restored = { userId: "xiaoming", snapshotAt: 1764504000000, restored: 12, present: 3 };
