/** The tools of the MCP server: input schemas, descriptions for the model, and the use case each one calls. */
import { z } from "zod";
import type { AccessTarget, Principal } from "../../memory/access/index.ts";
import type { TenantMemory } from "../../memory/tenant-memory.ts";
import { FACT_TYPES, type Fact, type FactType, type RecalledFact } from "../../memory/model.ts";
import { round4 } from "../render.ts";
import { IdSchema } from "../schemas/common.ts";
import { FactTypeSchema } from "../schemas/facts.ts";
import { MetadataSchema } from "../schemas/messages.ts";
import { MAX_METADATA_FILTERS, MAX_METADATA_FILTER_VALUE, METADATA_FILTER_KEY, type FactFilter } from "../../memory/facts/index.ts";

/** Who calls and what the connection names: the defaults a tool falls back on. */
export interface ToolCaller {
  principal: Principal;
  /** `X-Memory-User` of the connection: the user a key-authenticated client works for. */
  user: string | undefined;
  /** `X-Memory-Session` of the connection. */
  session: string | undefined;
}

/** A tool's answer before it becomes MCP content: text for the model. */
export interface ToolAnswer {
  text: string;
}

/** A problem the model can fix by calling again differently (becomes an `isError` result). */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

const TYPE_HELP =
  "fact: a stable truth about the user (name, job, family); preference: a like, dislike or habit; context: the user's current situation or project; temporary: true for a short while (this week's trip); experience: something that happened to the user";

const userIdField = IdSchema.optional().describe(
  "The user whose memory this is. Omit it when the connection already names the user (a user token, or the X-Memory-User header); otherwise required.",
);

const agentIdField = IdSchema.optional().describe(
  "Only the memories this agent sees: the ones stored with this agentId plus the shared ones (stored without an agent). Omit it to search every memory of the user.",
);

const metadataFilterField = z
  .record(
    z.string().regex(METADATA_FILTER_KEY, "metadata keys are 1-64 of A-Z a-z 0-9 _, starting with a letter"),
    z.string().min(1).max(MAX_METADATA_FILTER_VALUE),
  )
  .refine((m) => Object.keys(m).length <= MAX_METADATA_FILTERS, `at most ${MAX_METADATA_FILTERS} metadata keys`)
  .optional()
  .describe(
    'Only memories whose metadata holds each of these keys with this value, e.g. {"topic": "family"} (text "3" also matches the number 3, "true" the boolean).',
  );

/** The filter of a recall or list call, from its validated arguments. */
function filterOf(args: { agentId?: string | undefined; metadata?: Record<string, string> | undefined }): FactFilter | undefined {
  if (args.agentId === undefined && args.metadata === undefined) return undefined;
  return { agentId: args.agentId, metadata: args.metadata };
}

/** Which of the user's memories a search or a listing covers: type, agent, metadata, user. */
const whichMemories = {
  types: z.array(FactTypeSchema).min(1).max(FACT_TYPES.length).optional().describe(`Only memories of these types. ${TYPE_HELP}.`),
  agentId: agentIdField,
  metadata: metadataFilterField,
  userId: userIdField,
};

const shapes = {
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

type Args<K extends keyof typeof shapes> = z.infer<z.ZodObject<(typeof shapes)[K]>>;

/** One tool: its name, what the model reads about it, its input and what it runs. */
export interface ToolDefinition<K extends keyof typeof shapes = keyof typeof shapes> {
  name: K;
  title: string;
  description: string;
  inputSchema: (typeof shapes)[K];
  /** Read-only tools are annotated so clients may run them without asking the user. */
  readOnly: boolean;
  /** Destructive tools are annotated so clients ask the user first. */
  destructive: boolean;
  /** The user and session the call acts on (what the access rules check). */
  target(args: Record<string, unknown>, caller: ToolCaller): AccessTarget;
  run(memory: TenantMemory, args: Args<K>, caller: ToolCaller): Promise<ToolAnswer>;
}

const asId = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** The user a call acts for: its argument, else the connection's `X-Memory-User`, else a token's own user. */
export function callUser(args: Record<string, unknown>, caller: ToolCaller): string | undefined {
  return asId(args.userId) ?? caller.user ?? (caller.principal.kind === "token" ? caller.principal.userId : undefined);
}

/** The session a call acts on: its argument, else `X-Memory-Session`, else a session token's own session. */
export function callSession(args: Record<string, unknown>, caller: ToolCaller): string | undefined {
  return (
    asId(args.sessionId) ?? caller.session ?? (caller.principal.kind === "token" ? (caller.principal.sessionId ?? undefined) : undefined)
  );
}

function requireUser(args: Record<string, unknown>, caller: ToolCaller): string {
  const user = callUser(args, caller);
  if (user === undefined) throw new ToolInputError("name the user: pass userId (or connect with the X-Memory-User header or a user token)");
  return user;
}

const userTarget = (args: Record<string, unknown>, caller: ToolCaller): AccessTarget => ({ userId: callUser(args, caller) });

const typeOf = (fact: Fact): string => (fact.type === "fact" ? "" : ` [${fact.type}]`);
const date = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const factLine = (fact: Fact): string =>
  `- ${fact.id}${typeOf(fact)} ${fact.text} (stored ${date(fact.createdAt)}, importance ${fact.importance})`;
const recalledLine = (r: RecalledFact): string =>
  `- ${r.fact.id}${typeOf(r.fact)} ${r.fact.text} (score ${round4(r.score)}, stored ${date(r.fact.createdAt)})`;

const remember: ToolDefinition<"remember"> = {
  name: "remember",
  title: "Remember a fact about the user",
  description:
    "Store one long-term memory about the user: a fact, preference, situation or event worth knowing in later conversations. Store one idea per call, as a self-contained sentence. Storing the same text again refreshes the existing memory instead of duplicating it, and a newer statement about the same thing replaces the older one. Do not store secrets such as passwords.",
  inputSchema: shapes.remember,
  readOnly: false,
  destructive: false,
  target: userTarget,
  async run(memory, args, caller) {
    const userId = requireUser(args, caller);
    const { fact, created } = await memory.facts(userId).remember({
      text: args.text,
      type: args.type ?? "fact",
      importance: args.importance ?? 0.5,
      metadata: args.metadata,
      createdAt: undefined,
    });
    return { text: `${created ? "Stored" : "Already known, refreshed"}: ${fact.id}${typeOf(fact)} ${fact.text}` };
  },
};

const recall: ToolDefinition<"recall"> = {
  name: "recall",
  title: "Search the user's memories",
  description:
    "Search the user's long-term memories by meaning and return the most relevant ones, best first, each with its id, type and score. Call it before answering anything that may depend on what the user said in earlier conversations (their name, family, preferences, plans). An empty result means nothing relevant is stored.",
  inputSchema: shapes.recall,
  readOnly: true,
  destructive: false,
  target: userTarget,
  async run(memory, args, caller) {
    const userId = requireUser(args, caller);
    const found = await memory
      .facts(userId)
      .recall(args.query, { k: args.k ?? memory.options.recallK, types: args.types as FactType[] | undefined, filter: filterOf(args) });
    if (found.length === 0) return { text: `No stored memory of ${userId} matches "${args.query}".` };
    return {
      text: [`${found.length} ${found.length === 1 ? "memory" : "memories"} of ${userId}, best first:`, ...found.map(recalledLine)].join(
        "\n",
      ),
    };
  },
};

const forget: ToolDefinition<"forget"> = {
  name: "forget",
  title: "Delete a memory",
  description:
    "Delete one long-term memory of the user by its id (find the id with recall or list_memories first). Use it when the user asks to forget something or a memory is wrong; to correct a memory, you may instead remember the corrected statement. Deleting is permanent.",
  inputSchema: shapes.forget,
  readOnly: false,
  destructive: true,
  target: userTarget,
  async run(memory, args, caller) {
    const userId = requireUser(args, caller);
    await memory.facts(userId).delete(args.factId);
    return { text: `Deleted ${args.factId} of ${userId}.` };
  },
};

const listMemories: ToolDefinition<"list_memories"> = {
  name: "list_memories",
  title: "List the user's memories",
  description:
    "List every long-term memory of the user, one page at a time, oldest first (not ranked: use recall to search). When more remain, the answer ends with a cursor: pass it back to get the next page.",
  inputSchema: shapes.list_memories,
  readOnly: true,
  destructive: false,
  target: userTarget,
  async run(memory, args, caller) {
    const userId = requireUser(args, caller);
    const page = await memory.facts(userId).list(args.cursor ?? "", args.limit ?? 50, args.types as FactType[] | undefined, filterOf(args));
    const head =
      page.facts.length === 0
        ? `${userId} has no stored memories${args.cursor ? " after this cursor" : ""}.`
        : `${page.facts.length} memories of ${userId}:`;
    const more = page.nextCursor ? [`More remain: call list_memories again with cursor "${page.nextCursor}".`] : [];
    return { text: [head, ...page.facts.map(factLine), ...more].join("\n") };
  },
};

const getContext: ToolDefinition<"get_context"> = {
  name: "get_context",
  title: "Get a conversation's context",
  description:
    "Assemble what a model needs to continue a stored conversation, within a token budget: the pinned system messages, the summary of older turns, the user's memories relevant to the query, and the latest messages. Use it to pick up a conversation another app or an earlier session stored.",
  inputSchema: shapes.get_context,
  readOnly: true,
  destructive: false,
  target: (args, caller) => ({ userId: callUser(args, caller), sessionId: callSession(args, caller) }),
  async run(memory, args, caller) {
    const sessionId = callSession(args, caller);
    if (sessionId === undefined)
      throw new ToolInputError("name the conversation: pass sessionId (or connect with the X-Memory-Session header or a session token)");
    const context = await memory.context(sessionId, { query: args.query, budget: args.budget, k: args.k, userId: callUser(args, caller) });
    const lines = [`Context of session ${sessionId}: ${context.messages.length} messages, ${context.tokens.total} tokens.`];
    if (context.degraded.length > 0) lines.push(`Incomplete: ${context.degraded.join(", ")} could not be read; retry shortly.`);
    if (context.facts.length > 0) lines.push("Recalled memories:", ...context.facts.map(recalledLine));
    lines.push("Messages, oldest first:", ...context.messages.map((m) => `[${m.role}] ${m.content ?? ""}`));
    return { text: lines.join("\n") };
  },
};

/** Every tool the server offers. */
export const TOOLS: readonly ToolDefinition[] = [
  remember,
  recall,
  forget,
  listMemories,
  getContext,
] as unknown as readonly ToolDefinition[];
