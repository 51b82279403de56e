/** @module The MCP tools' input and output shapes (what the model reads in tools/list), and the check of a call's raw arguments. */
import { z } from "zod";
import { MAX_METADATA_FILTERS } from "../../memory/facts/index.ts";
import { FACT_TYPES } from "../../memory/model.ts";
import { issueProblem } from "../router.ts";
import { IdSchema } from "../schemas/common.ts";
import { FactTypeSchema, metadataFilterKeyProblem, metadataFilterValueProblem } from "../schemas/facts.ts";
import { MetadataSchema } from "../schemas/messages.ts";
import type { ToolDefinition } from "./tool-def.ts";

const TYPE_HELP =
  "fact: a stable truth about the user (name, job, family); preference: a like, dislike or habit; context: the user's current situation or project; temporary: true for a short while (this week's trip); experience: something that happened to the user; episode: a message of the user kept as said, dated when it was said (written by learning)";

const userIdField = IdSchema.optional().describe(
  "The user whose memory this is. Omit it when the connection already names the user (a user token, or the X-Memory-User header); otherwise required.",
);

const agentIdField = IdSchema.optional().describe(
  "Only the memories this agent sees: the ones stored with this agentId plus the shared ones (stored without an agent). Omit it to search every memory of the user.",
);

// Keys and values are checked on the raw arguments by the REST rule (see `checkArguments`); the
// schema describes them for the model.
const metadataFilterField = z
  .record(z.string(), z.string())
  .optional()
  .describe(
    `Only memories whose metadata holds each of these keys with this value, e.g. {"topic": "family"} (text "3" also matches the number 3, "true" the boolean). At most ${MAX_METADATA_FILTERS} keys, each 1-64 of A-Z a-z 0-9 _ starting with a letter.`,
  );

/** Which of the user's memories a search or a listing covers: type, agent, metadata, user. */
const whichMemories = {
  types: z.array(FactTypeSchema).min(1).max(FACT_TYPES.length).optional().describe(`Only memories of these types. ${TYPE_HELP}.`),
  agentId: agentIdField,
  metadata: metadataFilterField,
  userId: userIdField,
};

/** Every tool's arguments, by tool name. */
export const INPUTS = {
  remember: {
    text: z
      .string()
      .trim()
      .min(1)
      .max(4000)
      .describe('The memory as one self-contained sentence in the third person, e.g. "The user\'s daughter Lily is 7 and loves drawing."'),
    type: FactTypeSchema.optional().describe(`What kind of memory this is (default fact). ${TYPE_HELP}.`),
    importance: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe("How much it matters later, 0 to 1 (default 0.5); 0.8 and above for things the user would be upset to have forgotten."),
    metadata: MetadataSchema.optional().describe(
      'Optional JSON object stored with the memory (e.g. {"topic": "family"}); at most 4096 characters as JSON.',
    ),
    userId: userIdField,
  },
  recall: {
    query: z
      .string()
      .trim()
      .min(1)
      .max(4000)
      .describe('What to look for, in natural language: a question or the topic at hand, e.g. "the user\'s children".'),
    k: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe("How many memories to return at most (default: the service's recall size, 3 unless configured)."),
    ...whichMemories,
  },
  forget: {
    factId: IdSchema.describe("The id of the memory to delete, exactly as recall or list_memories printed it."),
    userId: userIdField,
  },
  list_memories: {
    cursor: z
      .string()
      .max(64)
      .regex(/^[A-Za-z0-9_-]*$/, "must be a cursor list_memories returned")
      .optional()
      .describe("The next-page cursor the previous call printed; omit for the first page."),
    limit: z.number().int().min(1).max(200).optional().describe("Memories per page (default 50)."),
    current: z
      .boolean()
      .optional()
      .describe("Only current memories: leave out those a newer statement superseded (default false: all, superseded ones marked)."),
    ...whichMemories,
  },
  get_context: {
    sessionId: IdSchema.optional().describe(
      "The conversation whose context to assemble. Omit it when the connection names the session (a session token, or the X-Memory-Session header).",
    ),
    query: z
      .string()
      .max(4000)
      .optional()
      .describe("The user's latest message or topic: memories relevant to it are recalled into the context."),
    budget: z
      .number()
      .int()
      .min(50)
      .max(2_000_000)
      .optional()
      .describe("Token budget of the context (default: the service's configured budget)."),
    k: z
      .number()
      .int()
      .min(0)
      .max(50)
      .optional()
      .describe("How many memories to recall into it at most (default: the service's recall size; 0 for none)."),
    userId: userIdField,
  },
} as const;

/** Timestamps as on the REST API: epoch milliseconds. */
const Ms = z.number().int().describe("Epoch milliseconds");

const memoryFields = {
  id: z.string().describe("The memory's id: pass it to forget"),
  text: z.string(),
  type: FactTypeSchema,
  importance: z.number(),
  createdAt: Ms,
  supersededAt: Ms.optional().describe("When a newer statement replaced it (it is no longer current)"),
  supersededBy: z.string().optional().describe("The id of the memory that replaced it"),
};

const recalledMemory = z.object({ ...memoryFields, score: z.number().describe("Ranking score (relevance first), rounded to 4 decimals") });

/** Every tool's `structuredContent`, by tool name: what a program reads without parsing the text. */
export const OUTPUTS = {
  remember: {
    id: z.string(),
    text: z.string(),
    type: FactTypeSchema,
    importance: z.number(),
    created: z.boolean().describe("false: the same text was already stored (refreshed)"),
  },
  recall: { userId: z.string(), memories: z.array(recalledMemory).describe("Best first") },
  forget: { id: z.string(), deleted: z.literal(true) },
  list_memories: {
    userId: z.string(),
    memories: z.array(z.object(memoryFields)).describe("Oldest first"),
    nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last page"),
  },
  get_context: {
    sessionId: z.string(),
    tokens: z.number().int().describe("Tokens of the assembled context"),
    degraded: z.array(z.string()).describe("Parts that could not be read (empty: the context is complete)"),
    memories: z.array(recalledMemory).describe("Recalled memories, best first"),
    messages: z.array(z.object({ role: z.string(), content: z.string() })).describe("Oldest first"),
  },
} as const;

/** A memory as structured content: the REST fact's fields a model or program acts on. */
export type MemoryItem = z.infer<z.ZodObject<typeof memoryFields>>;
/** A recalled memory as structured content: a memory and its score. */
export type RecalledItem = z.infer<typeof recalledMemory>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The metadata filter's problem by the REST rule, on the raw object (a parsed record has lost `__proto__`). */
function metadataFilterProblem(metadata: unknown): string | null {
  if (!isPlainObject(metadata)) return null;
  const entries = Object.entries(metadata);
  if (entries.length > MAX_METADATA_FILTERS) return `metadata must have at most ${MAX_METADATA_FILTERS} keys`;
  for (const [key, value] of entries) {
    const shown = JSON.stringify(key.slice(0, 64));
    const keyProblem = metadataFilterKeyProblem(key);
    if (keyProblem) return `metadata ${shown} ${keyProblem}`;
    if (typeof value !== "string") return `metadata ${shown} must be a string`;
    const valueProblem = metadataFilterValueProblem(value);
    if (valueProblem) return `metadata ${shown} ${valueProblem}`;
  }
  return null;
}

/** The path of the first `__proto__` key in a JSON value, or null: parsing would drop it without a word. */
function protoKeyPath(value: unknown, path: string[] = []): string[] | null {
  if (path.length > 8 || typeof value !== "object" || value === null) return null;
  for (const [key, nested] of Object.entries(value)) {
    if (key === "__proto__") return [...path, key];
    const found = protoKeyPath(nested, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * A tool call's arguments checked as the REST API checks a body, on the raw JSON: the metadata
 * filter by the shared rule, no `__proto__` key anywhere, then the tool's schema. A refusal is one
 * sentence naming the argument and the rule, like a REST 400 message.
 */
export function checkArguments(
  tool: ToolDefinition,
  raw: Record<string, unknown>,
): { ok: true; args: Record<string, unknown> } | { ok: false; message: string } {
  const filterProblem = tool.metadataFilter ? metadataFilterProblem(raw.metadata) : null;
  if (filterProblem) return { ok: false, message: `invalid arguments: ${filterProblem}` };
  const proto = protoKeyPath(raw);
  if (proto) return { ok: false, message: `invalid arguments: ${proto.join(".")} is not an allowed key` };
  const parsed = tool.inputSchema().safeParse(raw);
  if (parsed.success) return { ok: true, args: parsed.data };
  const issue = parsed.error.issues[0];
  if (!issue) return { ok: false, message: "invalid arguments" };
  const path =
    issue.code === "unrecognized_keys"
      ? [...issue.path.map(String), issue.keys.map((k) => k.slice(0, 64)).join(", ")]
      : issue.path.map(String);
  const where = path.length > 0 ? `${path.join(".")} ` : "";
  return { ok: false, message: `invalid arguments: ${where}${issueProblem(issue)}` };
}
