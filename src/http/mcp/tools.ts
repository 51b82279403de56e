/** @module The MCP tools, one `defineTool` each: input and output shapes, access class, annotations, what the model reads, and the use case it runs. */
import type { Fact, FactType, RecalledFact } from "../../memory/model.ts";
import type { FactFilter } from "../../memory/facts/index.ts";
import { sessionRead, userRead, userWrite } from "../access-table.ts";
import { factDefaults, recallSize } from "../defaults.ts";
import { round4 } from "../render.ts";
import { INPUTS, OUTPUTS, type MemoryItem, type RecalledItem } from "./fields.ts";
import { defineTool, type ToolDefinition } from "./tool-def.ts";

/** The filter of a recall or list call, from its validated arguments. */
function filterOf(args: { agentId?: string | undefined; metadata?: Record<string, string> | undefined }): FactFilter | undefined {
  if (args.agentId === undefined && args.metadata === undefined) return undefined;
  return { agentId: args.agentId, metadata: args.metadata };
}

const typeOf = (fact: Fact): string => (fact.type === "fact" ? "" : ` [${fact.type}]`);
const date = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** A superseded memory says so, so a model never takes it for current. */
const supersededNote = (fact: Fact): string =>
  fact.supersededAt === undefined ? "" : ` (superseded ${date(fact.supersededAt)}${fact.supersededBy ? ` by ${fact.supersededBy}` : ""})`;
const factLine = (fact: Fact): string =>
  `- ${fact.id}${typeOf(fact)} ${fact.text} (stored ${date(fact.createdAt)}, importance ${fact.importance})${supersededNote(fact)}`;
const recalledLine = (r: RecalledFact): string =>
  `- ${r.fact.id}${typeOf(r.fact)} ${r.fact.text} (score ${round4(r.score)}, stored ${date(r.fact.createdAt)})${supersededNote(r.fact)}`;

/** A memory as structured content: the REST fact's fields a model or program acts on. */
function memoryOf(fact: Fact): MemoryItem {
  return {
    id: fact.id,
    text: fact.text,
    type: fact.type,
    importance: fact.importance,
    createdAt: fact.createdAt,
    ...(fact.supersededAt === undefined ? {} : { supersededAt: fact.supersededAt }),
    ...(fact.supersededBy === undefined ? {} : { supersededBy: fact.supersededBy }),
  };
}

const recalledOf = (r: RecalledFact): RecalledItem => ({ ...memoryOf(r.fact), score: round4(r.score) });

const remember = defineTool({
  name: "remember",
  title: "Remember a fact about the user",
  description:
    "Store one long-term memory about the user: a fact, preference, situation or event worth knowing in later conversations. Store one idea per call, as a self-contained sentence. Storing the same text again refreshes the existing memory instead of duplicating it, and a newer statement about the same thing replaces the older one. Do not store secrets such as passwords.",
  input: INPUTS.remember,
  output: OUTPUTS.remember,
  access: userWrite,
  actsOn: "user",
  readOnly: false,
  destructive: false,
  // Storing the same text again refreshes the stored memory: a second call is not a no-op.
  idempotent: false,
  async run(memory, args, scope) {
    const { fact, created } = await memory
      .facts(scope.user())
      .remember({ text: args.text, ...factDefaults(args), metadata: args.metadata, createdAt: undefined });
    return {
      text: `${created ? "Stored" : "Already known, refreshed"}: ${fact.id}${typeOf(fact)} ${fact.text}`,
      structured: { id: fact.id, text: fact.text, type: fact.type, importance: fact.importance, created },
    };
  },
});

const recall = defineTool({
  name: "recall",
  title: "Search the user's memories",
  description:
    "Search the user's long-term memories by meaning and return the most relevant ones, best first, each with its id, type and score. Call it before answering anything that may depend on what the user said in earlier conversations (their name, family, preferences, plans). An empty result means nothing relevant is stored.",
  input: INPUTS.recall,
  output: OUTPUTS.recall,
  access: userRead,
  actsOn: "user",
  readOnly: true,
  destructive: false,
  idempotent: true,
  metadataFilter: true,
  async run(memory, args, scope) {
    const userId = scope.user();
    const found = await memory
      .facts(userId)
      .recall(args.query, { k: recallSize(memory, args.k), types: args.types as FactType[] | undefined, filter: filterOf(args) });
    const structured = { userId, memories: found.map(recalledOf) };
    if (found.length === 0) return { text: `No stored memory of ${userId} matches "${args.query}".`, structured };
    const head = `${found.length} ${found.length === 1 ? "memory" : "memories"} of ${userId}, best first:`;
    return { text: [head, ...found.map(recalledLine)].join("\n"), structured };
  },
});

const forget = defineTool({
  name: "forget",
  title: "Delete a memory",
  description:
    "Delete one long-term memory of the user by its id (find the id with recall or list_memories first). Use it when the user asks to forget something or a memory is wrong; to correct a memory, you may instead remember the corrected statement. Deleting is permanent.",
  input: INPUTS.forget,
  output: OUTPUTS.forget,
  access: userWrite,
  actsOn: "user",
  readOnly: false,
  destructive: true,
  idempotent: true,
  async run(memory, args, scope) {
    const userId = scope.user();
    await memory.facts(userId).delete(args.factId);
    return { text: `Deleted ${args.factId} of ${userId}.`, structured: { id: args.factId, deleted: true as const } };
  },
});

const listMemories = defineTool({
  name: "list_memories",
  title: "List the user's memories",
  description:
    "List every long-term memory of the user, one page at a time, oldest first (not ranked: use recall to search); a memory a newer statement replaced is marked superseded (current: true leaves those out). When more remain, the answer ends with a cursor: pass it back to get the next page.",
  input: INPUTS.list_memories,
  output: OUTPUTS.list_memories,
  access: userRead,
  actsOn: "user",
  readOnly: true,
  destructive: false,
  idempotent: true,
  metadataFilter: true,
  async run(memory, args, scope) {
    const userId = scope.user();
    const page = await memory
      .facts(userId)
      .list(args.cursor ?? "", args.limit ?? 50, args.types as FactType[] | undefined, filterOf(args), { current: args.current === true });
    const head =
      page.facts.length === 0
        ? `${userId} has no stored memories${args.cursor ? " after this cursor" : ""}.`
        : `${page.facts.length} memories of ${userId}:`;
    const more = page.nextCursor ? [`More remain: call list_memories again with cursor "${page.nextCursor}".`] : [];
    return {
      text: [head, ...page.facts.map(factLine), ...more].join("\n"),
      structured: { userId, memories: page.facts.map(memoryOf), nextCursor: page.nextCursor === "" ? null : page.nextCursor },
    };
  },
});

const getContext = defineTool({
  name: "get_context",
  title: "Get a conversation's context",
  description:
    "Assemble what a model needs to continue a stored conversation, within a token budget: the pinned system messages, the summary of older turns, the user's memories relevant to the query, and the latest messages. Use it to pick up a conversation another app or an earlier session stored.",
  input: INPUTS.get_context,
  output: OUTPUTS.get_context,
  access: sessionRead,
  actsOn: "session",
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(memory, args, scope) {
    const sessionId = scope.session();
    const context = await memory.context(sessionId, { query: args.query, budget: args.budget, k: args.k, userId: scope.userId });
    const lines = [`Context of session ${sessionId}: ${context.messages.length} messages, ${context.tokens.total} tokens.`];
    if (context.degraded.length > 0) lines.push(`Incomplete: ${context.degraded.join(", ")} could not be read; retry shortly.`);
    if (context.facts.length > 0) lines.push("Recalled memories:", ...context.facts.map(recalledLine));
    lines.push("Messages, oldest first:", ...context.messages.map((m) => `[${m.role}] ${m.content}`));
    return {
      text: lines.join("\n"),
      structured: {
        sessionId,
        tokens: context.tokens.total,
        degraded: [...context.degraded],
        memories: context.facts.map(recalledOf),
        messages: context.messages.map((m) => ({ role: m.role, content: m.content })),
      },
    };
  },
});

/** Every tool the server offers. */
export const TOOLS: readonly ToolDefinition[] = [remember, recall, forget, listMemories, getContext];
