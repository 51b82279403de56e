/** @module The long-term fact routes under /v1/users/{userId}/facts: add, import, recall or list, get, update, delete. */
import { z } from "@hono/zod-openapi";
import { factDefaults, recallSize } from "../defaults.ts";
import { recalledView } from "../render.ts";
import { userRead, userWrite } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { IdSchema, QueryBool, UserParams, errors, queryInt, jsonResponse, security } from "../schemas/common.ts";
import {
  FACT_EXAMPLES,
  FACT_IMPORT_EXAMPLE,
  FactDeletedSchema,
  FactImportSchema,
  FactSchema,
  FactWriteSchema,
  FactsAnswerSchema,
  type FactDeleted,
  type FactImportAnswer,
  type FactList,
  type FactRecall,
  type FactWrite,
} from "../schemas/fact-responses.ts";
import {
  CreatedAtSchema,
  FactTextSchema,
  FactTypeList,
  FactTypeSchema,
  QueryTime,
  checkMetadataParams,
  metadataParams,
} from "../schemas/facts.ts";
import { MAX_IMPORT, type FactFilter, type FactDraft } from "../../memory/facts/index.ts";
import { MetadataSchema } from "../schemas/messages.ts";

const NewFact = z
  .object({
    text: FactTextSchema,
    type: FactTypeSchema.optional(),
    importance: z.number().min(0).max(1).optional(),
    createdAt: CreatedAtSchema.optional(),
    metadata: MetadataSchema.optional(),
    agentId: IdSchema.optional().openapi({
      description:
        "The agent writing the fact: only that agent sees it (with the shared facts) when it lists or recalls with `agentId`. Default: shared by all agents of the user",
      example: "planner",
    }),
  })
  .strict()
  .openapi("NewFact");
const FactImport = z
  .object({ facts: z.array(NewFact).min(1).max(MAX_IMPORT) })
  .strict()
  .openapi("FactImport");
type NewFactBody = z.infer<typeof NewFact>;
const toDraft = (body: NewFactBody): FactDraft => ({
  text: body.text,
  ...factDefaults(body),
  metadata: body.metadata,
  createdAt: body.createdAt,
  agentId: body.agentId,
});
const FactPatch = z
  .object({
    text: FactTextSchema.optional(),
    type: FactTypeSchema.optional(),
    importance: z.number().min(0).max(1).optional(),
    metadata: MetadataSchema.optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, "name at least one field to change");
const FactParams = UserParams.extend({ factId: IdSchema.openapi({ param: { name: "factId", in: "path" } }) });

const searchFields = {
  query: z.string().max(4000).optional(),
  k: queryInt(1, 50).optional(),
  types: FactTypeList.optional(),
  type: FactTypeList.optional(),
  minScore: z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?)$/, "must be a number from 0 to 1")
    .transform(Number)
    .optional(),
  cursor: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_-]*$/, "invalid cursor")
    .optional(),
  limit: queryInt(1, 1000).optional(),
  current: QueryBool.optional().openapi({
    description:
      "`true`: list only current facts, none a newer statement superseded (no `supersededAt`). Default: all, superseded ones marked. Recall answers current facts only either way",
  }),
  agentId: IdSchema.optional().openapi({
    description: "Only what this agent sees: its own facts and the shared ones (written without an agent)",
  }),
  createdAfter: QueryTime.optional().openapi({ description: "Only facts created at or after this time (epoch ms or ISO 8601)" }),
  createdBefore: QueryTime.optional().openapi({ description: "Only facts created before this time (epoch ms or ISO 8601)" }),
};

/**
 * The search query: the fields above and `metadata.<key>=<value>` equalities (the catchall); any
 * other name is refused, a raw `filter=` string included.
 */
const SearchQuery = z
  .object(searchFields)
  .catchall(z.unknown())
  .superRefine(checkMetadataParams(Object.keys(searchFields)));

const factsPath = "/v1/users/{userId}/facts";
const routes = {
  add: defineRoute(
    {
      method: "post",
      path: factsPath,
      summary: "Store a fact (the same text twice is one fact)",
      security,
      request: { params: UserParams, body: { content: { "application/json": { schema: NewFact } }, required: true } },
      responses: {
        201: jsonResponse(FactWriteSchema, "Created", FACT_EXAMPLES.write),
        200: jsonResponse(FactWriteSchema, "Already known; refreshed", { ...FACT_EXAMPLES.write, created: false }),
        ...errors(400, 401, 413, 415, 503),
      },
    },
    {
      access: userWrite,
      doc: {
        operationId: "addFact",
        tag: "Facts",
        description:
          "Stores a long-term fact. The id is a hash of the normalized text, so the same text twice is one fact (200 instead of 201). `createdAt` (epoch ms or ISO 8601, not in the future) dates an imported fact back.",
      },
      example: { text: "lives in Berlin", type: "fact", importance: 0.7 },
    },
  ),
  import: defineRoute(
    {
      method: "post",
      path: `${factsPath}/import`,
      summary: "Import up to 100 facts with their original timestamps in one write",
      security,
      request: { params: UserParams, body: { content: { "application/json": { schema: FactImport } }, required: true } },
      responses: { 200: jsonResponse(FactImportSchema, "Imported", FACT_IMPORT_EXAMPLE), ...errors(400, 401, 409, 413, 415, 503) },
    },
    {
      access: userWrite,
      doc: {
        operationId: "importFacts",
        tag: "Facts",
        description:
          "Imports up to 100 facts `{text, type?, importance?, createdAt?, metadata?}` in one Vector upsert, for migrating memories from another system. `createdAt` (epoch ms or ISO 8601, not in the future) keeps the original time, from which the type's lifetime runs. Same identity as single writes: a text already stored (or repeated in the batch) refreshes that fact. Answers the ids in order and how many were new.",
      },
      example: {
        facts: [
          { text: "Lives in Berlin", type: "fact", importance: 0.7, createdAt: "2026-03-14T09:30:00Z" },
          { text: "Prefers window seats", type: "preference", createdAt: 1773480600000 },
        ],
      },
    },
  ),
  search: defineRoute(
    {
      method: "get",
      path: factsPath,
      summary: "Recall with ?query= (ranked by similarity, importance, recency), or list with a cursor",
      security,
      request: { params: UserParams, query: SearchQuery },
      responses: {
        200: jsonResponse(FactsAnswerSchema, "Recalled facts, or one page of all facts", FACT_EXAMPLES.recall),
        ...errors(400, 401, 503),
      },
    },
    {
      access: userRead,
      doc: {
        operationId: "searchFacts",
        tag: "Facts",
        description:
          "With `query`: recall, relevance first; `minScore` is the relevance gate (0..1, 0 = unrelated; default: calibrated per `VECTOR_INDEX`), importance, use and recency only break near-ties within `RECALL_MARGIN`. Recall answers current facts only. Without: every fact, superseded ones marked with `supersededAt` and `supersededBy` (`current=true` leaves them out), paged with `cursor` and `limit` (`nextCursor` is null on the last page). Both take filters, combined with AND: `types`, `agentId` (that agent's facts and the shared ones), `createdAfter` (inclusive), `createdBefore` (exclusive) and `metadata.<key>=<value>` (equality on a scalar metadata value, up to 8 keys; `3` and `true` also match the number and the boolean). A list filters each page after reading it, so a page may hold fewer than `limit` facts while `nextCursor` leads on. Unknown parameters, a raw `filter` string included, answer 400.",
      },
    },
  ),
  get: defineRoute(
    {
      method: "get",
      path: `${factsPath}/{factId}`,
      summary: "One fact",
      security,
      request: { params: FactParams },
      responses: { 200: jsonResponse(FactSchema, "The fact", FACT_EXAMPLES.fact), ...errors(400, 401, 404, 503) },
    },
    {
      access: userRead,
      doc: { operationId: "getFact", tag: "Facts", description: "One fact with its type, importance, timestamps and access stats." },
    },
  ),
  patch: defineRoute(
    {
      method: "patch",
      path: `${factsPath}/{factId}`,
      summary: "Change a fact; its id stays (a new text keeps the old one in history; 409 when another fact holds it)",
      security,
      request: { params: FactParams, body: { content: { "application/json": { schema: FactPatch } }, required: true } },
      responses: {
        200: jsonResponse(FactSchema, "The changed fact", { ...FACT_EXAMPLES.fact, version: 2 }),
        ...errors(400, 401, 404, 409, 413, 415, 503),
      },
    },
    {
      access: userWrite,
      doc: {
        operationId: "updateFact",
        tag: "Facts",
        description: "Changes a fact's text, type, importance or metadata; a new text keeps the old one in the fact's history.",
      },
      example: { text: "lives in Lisbon", importance: 0.8 },
    },
  ),
  delete: defineRoute(
    {
      method: "delete",
      path: `${factsPath}/{factId}`,
      summary: "Delete a fact",
      security,
      request: { params: FactParams },
      responses: { 200: jsonResponse(FactDeletedSchema, "Deleted", FACT_EXAMPLES.deleted), ...errors(400, 401, 404, 503) },
    },
    {
      access: userWrite,
      doc: {
        operationId: "deleteFact",
        tag: "Facts",
        description:
          'Deletes one fact. Deleting a statement takes it back: when it had superseded other facts, the newest of them is current again (`restored`; "forget that I moved to Munich" leaves "lives in Berlin" true) and the others now name that one in `supersededBy`; a deleted fact that was itself superseded hands what it replaced on to its successor. No fact is left naming a deleted one.',
      },
    },
  ),
};

export function factRoutes() {
  const app = createRouter();

  app.openapi(routes.add.route, async (c) => {
    const { userId } = c.req.valid("param");
    const { fact, created } = await c
      .get("memory")
      .facts(userId)
      .remember(toDraft(c.req.valid("json")));
    return c.json({ id: fact.id, created, fact } satisfies FactWrite, created ? 201 : 200);
  });

  app.openapi(routes.import.route, async (c) => {
    const { userId } = c.req.valid("param");
    const results = await c.get("memory").facts(userId).import(c.req.valid("json").facts.map(toDraft));
    const created = results.filter((r) => r.created).length;
    return c.json(
      { userId, ids: results.map((r) => r.fact.id), created, refreshed: results.length - created } satisfies FactImportAnswer,
      200,
    );
  });

  app.openapi(routes.search.route, async (c) => {
    const { userId } = c.req.valid("param");
    const q = c.req.valid("query");
    const facts = c.get("memory").facts(userId);
    const types = q.types ?? q.type;
    const filter: FactFilter = {
      agentId: q.agentId,
      createdAfter: q.createdAfter,
      createdBefore: q.createdBefore,
      metadata: metadataParams(q),
    };
    if (q.query !== undefined && q.query.trim() !== "") {
      const recalled = await facts.recall(q.query, { k: recallSize(c.get("memory"), q.k), types, minScore: q.minScore, filter });
      return c.json({ userId, query: q.query, facts: recalled.map(recalledView) } satisfies FactRecall, 200);
    }
    const page = await facts.list(q.cursor ?? "", q.limit ?? 100, types, filter, { current: q.current });
    return c.json({ userId, facts: page.facts, nextCursor: page.nextCursor === "" ? null : page.nextCursor } satisfies FactList, 200);
  });

  app.openapi(routes.get.route, async (c) => {
    const { userId, factId } = c.req.valid("param");
    return c.json(await c.get("memory").facts(userId).get(factId), 200);
  });

  app.openapi(routes.patch.route, async (c) => {
    const { userId, factId } = c.req.valid("param");
    return c.json(await c.get("memory").facts(userId).update(factId, c.req.valid("json")), 200);
  });

  app.openapi(routes.delete.route, async (c) => {
    const { userId, factId } = c.req.valid("param");
    const { restored } = await c.get("memory").facts(userId).delete(factId);
    return c.json({ userId, id: factId, deleted: 1, ...(restored === null ? {} : { restored }) } satisfies FactDeleted, 200);
  });

  return app;
}

/** The routes this module mounts, for the route registry. */
export const factRouteDefs: readonly DefinedRoute[] = Object.values(routes);
