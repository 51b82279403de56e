/** @module The MCP tools, one object each: input and output shapes, access class, what the model reads, and the use case it runs. */
import type { AccessTarget, OperationClass, Principal } from "../../memory/access/index.ts";
import type { TenantMemory } from "../../memory/tenant-memory.ts";
import type { Fact, FactType, RecalledFact } from "../../memory/model.ts";
import type { FactFilter } from "../../memory/facts/index.ts";
import { sessionRead, userRead, userWrite } from "../access-table.ts";
import { ToolInputError } from "../errors.ts";
import { round4 } from "../render.ts";
import { INPUTS, OUTPUTS, type Args, type Output, type ToolName } from "./fields.ts";

/** Who calls and what the connection names: the defaults a tool falls back on. */
export interface ToolCaller {
  principal: Principal;
  /** `X-Memory-User` of the connection: the user a key-authenticated client works for. */
  user: string | undefined;
  /** `X-Memory-Session` of the connection. */
  session: string | undefined;
}

/** A tool's answer: text for the model and the same facts as `structuredContent` for programs. */
export interface ToolAnswer<K extends ToolName = ToolName> {
  text: string;
  structured: Output<K>;
}

/** One tool: its name, what the model reads about it, its input and output, who may call it and what it runs. */
export interface ToolDefinition<K extends ToolName = ToolName> {
  name: K;
  title: string;
  description: string;
  inputSchema: (typeof INPUTS)[K];
  outputSchema: (typeof OUTPUTS)[K];
  /**
   * What the call needs, checked like a route's row: `recall` reads the user's facts like
   * `GET .../facts`, `remember` and `forget` write them, `get_context` reads a session.
   */
  access: OperationClass;
  /** Read-only tools are annotated so clients may run them without asking the user. */
  readOnly: boolean;
  /** Destructive tools are annotated so clients ask the user first. */
  destructive: boolean;
  /** The user and session the call acts on (what the access rules check). */
  target(args: Record<string, unknown>, caller: ToolCaller): AccessTarget;
  run(memory: TenantMemory, args: Args<K>, caller: ToolCaller): Promise<ToolAnswer<K>>;
}

/** The filter of a recall or list call, from its validated arguments. */
function filterOf(args: { agentId?: string | undefined; metadata?: Record<string, string> | undefined }): FactFilter | undefined {
  if (args.agentId === undefined && args.metadata === undefined) return undefined;
  return { agentId: args.agentId, metadata: args.metadata };
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
/** A superseded memory says so, so a model never takes it for current. */
const supersededNote = (fact: Fact): string =>
  fact.supersededAt === undefined ? "" : ` (superseded ${date(fact.supersededAt)}${fact.supersededBy ? ` by ${fact.supersededBy}` : ""})`;
const factLine = (fact: Fact): string =>
  `- ${fact.id}${typeOf(fact)} ${fact.text} (stored ${date(fact.createdAt)}, importance ${fact.importance})${supersededNote(fact)}`;
const recalledLine = (r: RecalledFact): string =>
  `- ${r.fact.id}${typeOf(r.fact)} ${r.fact.text} (score ${round4(r.score)}, stored ${date(r.fact.createdAt)})${supersededNote(r.fact)}`;

/** A memory as structured content: the REST fact's fields a model or program acts on. */
function memoryOf(fact: Fact): Output<"list_memories">["memories"][number] {
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

const recalledOf = (r: RecalledFact): Output<"recall">["memories"][number] => ({ ...memoryOf(r.fact), score: round4(r.score) });

const remember: ToolDefinition<"remember"> = {
  name: "remember",
  title: "Remember a fact about the user",
  description:
    "Store one long-term memory about the user: a fact, preference, situation or event worth knowing in later conversations. Store one idea per call, as a self-contained sentence. Storing the same text again refreshes the existing memory instead of duplicating it, and a newer statement about the same thing replaces the older one. Do not store secrets such as passwords.",
  inputSchema: INPUTS.remember,
  outputSchema: OUTPUTS.remember,
  access: userWrite,
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
    return {
      text: `${created ? "Stored" : "Already known, refreshed"}: ${fact.id}${typeOf(fact)} ${fact.text}`,
      structured: { id: fact.id, text: fact.text, type: fact.type, importance: fact.importance, created },
    };
  },
};

const recall: ToolDefinition<"recall"> = {
  name: "recall",
  title: "Search the user's memories",
  description:
    "Search the user's long-term memories by meaning and return the most relevant ones, best first, each with its id, type and score. Call it before answering anything that may depend on what the user said in earlier conversations (their name, family, preferences, plans). An empty result means nothing relevant is stored.",
  inputSchema: INPUTS.recall,
  outputSchema: OUTPUTS.recall,
  access: userRead,
  readOnly: true,
  destructive: false,
  target: userTarget,
  async run(memory, args, caller) {
    const userId = requireUser(args, caller);
    const found = await memory
      .facts(userId)
      .recall(args.query, { k: args.k ?? memory.options.recallK, types: args.types as FactType[] | undefined, filter: filterOf(args) });
    const structured = { userId, memories: found.map(recalledOf) };
    if (found.length === 0) return { text: `No stored memory of ${userId} matches "${args.query}".`, structured };
    const head = `${found.length} ${found.length === 1 ? "memory" : "memories"} of ${userId}, best first:`;
    return { text: [head, ...found.map(recalledLine)].join("\n"), structured };
  },
};

const forget: ToolDefinition<"forget"> = {
  name: "forget",
  title: "Delete a memory",
  description:
    "Delete one long-term memory of the user by its id (find the id with recall or list_memories first). Use it when the user asks to forget something or a memory is wrong; to correct a memory, you may instead remember the corrected statement. Deleting is permanent.",
  inputSchema: INPUTS.forget,
  outputSchema: OUTPUTS.forget,
  access: userWrite,
  readOnly: false,
  destructive: true,
  target: userTarget,
  async run(memory, args, caller) {
    const userId = requireUser(args, caller);
    await memory.facts(userId).delete(args.factId);
    return { text: `Deleted ${args.factId} of ${userId}.`, structured: { id: args.factId, deleted: true } };
  },
};

const listMemories: ToolDefinition<"list_memories"> = {
  name: "list_memories",
  title: "List the user's memories",
  description:
    "List every long-term memory of the user, one page at a time, oldest first (not ranked: use recall to search); a memory a newer statement replaced is marked superseded (current: true leaves those out). When more remain, the answer ends with a cursor: pass it back to get the next page.",
  inputSchema: INPUTS.list_memories,
  outputSchema: OUTPUTS.list_memories,
  access: userRead,
  readOnly: true,
  destructive: false,
  target: userTarget,
  async run(memory, args, caller) {
    const userId = requireUser(args, caller);
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
};

const getContext: ToolDefinition<"get_context"> = {
  name: "get_context",
  title: "Get a conversation's context",
  description:
    "Assemble what a model needs to continue a stored conversation, within a token budget: the pinned system messages, the summary of older turns, the user's memories relevant to the query, and the latest messages. Use it to pick up a conversation another app or an earlier session stored.",
  inputSchema: INPUTS.get_context,
  outputSchema: OUTPUTS.get_context,
  access: sessionRead,
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
};

/** Every tool the server offers. */
export const TOOLS: readonly ToolDefinition[] = [
  remember,
  recall,
  forget,
  listMemories,
  getContext,
] as unknown as readonly ToolDefinition[];
