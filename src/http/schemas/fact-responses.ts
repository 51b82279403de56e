/** @module Zod response schemas and examples of the fact routes: a fact, a write, a recall or list page, a delete, an import. */
import { z } from "@hono/zod-openapi";
import { FactTypeSchema } from "./facts.ts";

/** What the fact routes answer. */

const Ms = z.number().int().openapi({ description: "Epoch milliseconds", example: 1764590400000 });

const factFields = {
  id: z.string().openapi({ description: "Stable for the fact's lifetime; edits never change it" }),
  contentId: z
    .string()
    .optional()
    .openapi({ description: "Content id of the current text (absent on facts stored before it was recorded)" }),
  text: z.string(),
  type: FactTypeSchema,
  importance: z.number(),
  createdAt: Ms,
  updatedAt: Ms,
  lastAccessedAt: Ms,
  accessCount: z.number().int(),
  agentId: z
    .string()
    .optional()
    .openapi({ description: "The agent that wrote the fact and alone sees it; absent: shared by all agents of the user" }),
  sourceSession: z.string().optional(),
  sourceMessage: z.string().optional(),
  version: z.number().int(),
  history: z
    .array(z.object({ text: z.string(), updatedAt: Ms }))
    .optional()
    .openapi({ description: "Earlier texts this fact superseded" }),
  metadata: z.record(z.string(), z.unknown()).optional(),
  supersededAt: Ms.optional().openapi({
    description:
      "When the fact stopped being true: a newer statement superseded it (kept in lists and exports, never recalled; `current=true` lists leave it out)",
  }),
  supersededBy: z.string().optional().openapi({ description: "The fact that superseded it (always a stored fact: see deleteFact)" }),
};

export const FactSchema = z.object(factFields).openapi("Fact");

export const RecalledFactSchema = z
  .object({
    ...factFields,
    score: z.number().openapi({ description: "Ranking score: similarity, importance and recency" }),
    similarity: z.number().openapi({ description: "Raw similarity from the vector index, 0..1" }),
  })
  .openapi("RecalledFact");

export const FactWriteSchema = z
  .object({
    id: z.string(),
    created: z.boolean().openapi({ description: "false: the same text was already known (refreshed)" }),
    fact: FactSchema,
  })
  .openapi("FactWrite");

const FactRecall = z.object({
  userId: z.string(),
  query: z.string(),
  facts: z.array(RecalledFactSchema).openapi({ description: "Best first" }),
});
const FactList = z.object({
  userId: z.string(),
  facts: z.array(FactSchema),
  nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null at the end" }),
});

export const FactsAnswerSchema = z.union([FactRecall.openapi("FactRecall"), FactList.openapi("FactList")]).openapi("FactsAnswer", {
  description: "With `query`: the recalled facts (FactRecall); without: one page of all facts (FactList)",
});

export const FactDeletedSchema = z
  .object({
    userId: z.string(),
    id: z.string(),
    deleted: z.literal(1),
    restored: z.string().optional().openapi({
      description:
        "Only when the deleted fact had superseded others: the one current again now that the statement replacing it is gone (delete it too to forget both)",
    }),
  })
  .openapi("FactDeleted");

export type FactWrite = z.infer<typeof FactWriteSchema>;
export type FactRecall = z.infer<typeof FactRecall>;
export type FactList = z.infer<typeof FactList>;
export type FactDeleted = z.infer<typeof FactDeletedSchema>;

const fact = {
  id: "f_3b1c9a0e5d7f2a46",
  text: "lives in Berlin",
  type: "fact" as const,
  importance: 0.7,
  createdAt: 1764590000000,
  updatedAt: 1764590000000,
  lastAccessedAt: 1764590400000,
  accessCount: 3,
  version: 1,
};

export const FACT_EXAMPLES = {
  fact,
  write: { id: fact.id, created: true, fact },
  recall: { userId: "xiaoming", query: "where do I live", facts: [{ ...fact, score: 0.8123, similarity: 0.7911 }] },
  deleted: { userId: "xiaoming", id: fact.id, deleted: 1 as const },
};

export const FactImportSchema = z
  .object({
    userId: z.string(),
    ids: z.array(z.string()).openapi({ description: "The id of each imported fact, in the order sent (a repeated text has one id)" }),
    created: z.number().int().openapi({ description: "Facts that were new" }),
    refreshed: z.number().int().openapi({ description: "Facts already known, merged (their creation time kept)" }),
  })
  .openapi("FactImportResult");

export type FactImportAnswer = z.infer<typeof FactImportSchema>;

export const FACT_IMPORT_EXAMPLE: FactImportAnswer = {
  userId: "xiaoming",
  ids: ["f3b1c2d4e5f60718293a4b5c6", "f0a1b2c3d4e5f60718293a4b5"],
  created: 2,
  refreshed: 0,
};
