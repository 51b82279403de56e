/** @module Zod response schemas and examples of the working-memory routes: notes and the scratchpad. */
import { z } from "@hono/zod-openapi";

/** What the working-memory routes (notes, scratchpad) answer. */

export const NotesSchema = z
  .object({
    sessionId: z.string(),
    notes: z.record(z.string(), z.string()).openapi({ description: "One page of the notes, key to value" }),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last one" }),
  })
  .openapi("Notes");

export const NoteSchema = z.object({ sessionId: z.string(), key: z.string(), value: z.string() }).openapi("Note");

export const NoteDeletedSchema = z.object({ sessionId: z.string(), key: z.string(), deleted: z.literal(1) }).openapi("NoteDeleted");

export const ClearedSchema = z
  .object({ sessionId: z.string(), deleted: z.number().int().openapi({ description: "Entries removed" }) })
  .openapi("Cleared");

export const ScratchpadLengthSchema = z
  .object({ sessionId: z.string(), length: z.number().int().openapi({ description: "Entries in the scratchpad after the append" }) })
  .openapi("ScratchpadLength");

export const ScratchpadSchema = z
  .object({ sessionId: z.string(), entries: z.array(z.string()).openapi({ description: "Oldest first" }) })
  .openapi("Scratchpad");

export const WORKING_EXAMPLES = {
  notes: { sessionId: "demo", notes: { goal: "book a flight to Lisbon", budget: "500 EUR" }, nextCursor: null },
  note: { sessionId: "demo", key: "goal", value: "book a flight to Lisbon" },
  noteDeleted: { sessionId: "demo", key: "goal", deleted: 1 as const },
  cleared: { sessionId: "demo", deleted: 2 },
  length: { sessionId: "demo", length: 3 },
  scratchpad: { sessionId: "demo", entries: ["searched flights", "found 3 options"] },
};
