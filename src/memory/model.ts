/** Chat roles as in the OpenAI chat API. */
export type Role = "system" | "user" | "assistant" | "tool";

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/**
 * A message as a client sends it, already validated and normalized at the edge: OpenAI-shaped
 * input (`content: null` beside `tool_calls`, arrays of text parts) arrives here as plain text.
 */
export interface IncomingMessage {
  /** Client-supplied id makes the write idempotent; generated when absent. */
  id?: string | undefined;
  role: Role;
  content: string;
  name?: string | undefined;
  tool_calls?: ToolCall[] | undefined;
  tool_call_id?: string | undefined;
  /** 0..1; default 0.5, system messages are always 1. */
  importance?: number | undefined;
  /** Store a user message as a long-term fact too. Default false. */
  persist?: boolean | undefined;
  metadata?: Record<string, unknown> | undefined;
  /**
   * When the message was written, in ms since the epoch (an import, a client that queued it
   * offline). Default: the server's time of the append. See `messageTimes` for the rules.
   */
  ts?: number | undefined;
}

/** A message as it is stored: its token count is computed once, on write. */
export interface StoredMessage {
  id: string;
  role: Role;
  content: string;
  name?: string | undefined;
  tool_calls?: ToolCall[] | undefined;
  tool_call_id?: string | undefined;
  tokens: number;
  importance: number;
  /** Milliseconds since the epoch, set by the server. */
  ts: number;
  metadata?: Record<string, unknown> | undefined;
}

export type SummaryMethod = "llm" | "extractive";

/** The one rolling summary of a session. */
export interface Summary {
  text: string;
  tokens: number;
  /** Bumped by every committed compression; compare-and-set key. */
  version: number;
  /** How many messages the summary covers in total. */
  covered: number;
  method: SummaryMethod;
  updatedAt: number;
  /** Tokens after / tokens before of the last compression. */
  lastRatio: number;
}

/** Per-session overrides of the configured defaults. */
export interface SessionSettings {
  window?: number | undefined;
  maxTokens?: number | undefined;
  keep?: number | undefined;
  ttlSeconds?: number | undefined;
}

/** Identifies one session of one tenant. Both ids are validated before they get here. */
export interface SessionRef {
  tenant: string;
  sessionId: string;
}

export interface SessionMeta {
  userId?: string | undefined;
  createdAt: number;
  updatedAt: number;
  /** Bumped by every reset; a compression that started before a reset cannot commit after it. */
  epoch: number;
  /** Consecutive summarizer failures since the last committed compression. */
  summaryFailures: number;
}

/**
 * Counts and sums the stats need, kept as running totals in the session's meta (window) or read
 * from the pinned list's headers (system), so no read has to move the whole window to know them.
 * Importance sums are in millionths, integers, so adding and subtracting never drifts.
 */
export interface SessionTotals {
  systemCount: number;
  systemTokens: number;
  systemImportanceMicros: number;
  windowCount: number;
  windowTokens: number;
  windowImportanceMicros: number;
}

/** Everything one read of a session returns (one round trip). */
export interface SessionSnapshot {
  exists: boolean;
  system: StoredMessage[];
  /**
   * Unsummarized messages, oldest first: the whole window, or, when the read was bounded (see
   * `WindowBound`), only its newest messages a context of that budget can use; `windowStart`
   * says where they begin.
   */
  window: StoredMessage[];
  /** Sum of the whole window's stored token counts. */
  windowTokens: number;
  /** Messages in the whole window; absent when `window` is the whole window. */
  windowCount?: number | undefined;
  /** Index in the whole window of `window[0]`; absent (0) when `window` starts at the oldest. */
  windowStart?: number | undefined;
  /** Sum of the whole window's importance in millionths; absent when `window` is the whole window. */
  windowImportanceMicros?: number | undefined;
  summary: Summary | null;
  meta: SessionMeta | null;
  settings: SessionSettings;
}

/**
 * What a memory is. `episode` is a user's message kept as said (verbatim, dated by when it was
 * said); the others are statements learned or written about the user.
 */
export type FactType = "fact" | "preference" | "context" | "temporary" | "experience" | "episode";

export const FACT_TYPES: readonly FactType[] = ["fact", "preference", "context", "temporary", "experience", "episode"];

/** A type a learner writes: every type but `episode`. */
export type LearnedType = Exclude<FactType, "episode">;

/** The types a learner writes and supersedes: every type but `episode`, which is never rewritten or superseded. */
export const LEARNED_TYPES: readonly LearnedType[] = FACT_TYPES.filter((t): t is LearnedType => t !== "episode");

/** A long-term memory of one user. */
export interface Fact {
  /**
   * Stable for the fact's lifetime: the content id of the text it was created with (see
   * `factId`), or a fresh id when an edited fact still holds that one. Edits never change it.
   */
  id: string;
  /**
   * Content id of the current text, what a new write of the same text finds the fact by. Absent
   * on facts stored before it was recorded: their id is their content id.
   */
  contentId?: string | undefined;
  text: string;
  type: FactType;
  importance: number;
  createdAt: number;
  updatedAt: number;
  lastAccessedAt: number;
  accessCount: number;
  /**
   * The agent that wrote the fact and sees it alone (with the shared facts); absent: shared by all
   * agents of the user. Part of the fact's identity, so the same text is one fact per agent.
   */
  agentId?: string | undefined;
  sourceSession?: string | undefined;
  sourceMessage?: string | undefined;
  version: number;
  /** Earlier texts this fact superseded (latest wins on contradiction). */
  history?: { text: string; updatedAt: number }[] | undefined;
  metadata?: Record<string, unknown> | undefined;
  /**
   * When this fact stopped being true (ms): a newer statement superseded it. It stays stored (get,
   * list, export show it) and is never recalled.
   */
  supersededAt?: number | undefined;
  /** The id of the fact that superseded it. */
  supersededBy?: string | undefined;
}

/** A fact found by recall, with its scores. */
export interface RecalledFact {
  fact: Fact;
  /** The vector index's own score in its retrieval mode (see `RecallCandidate.similarity`). */
  similarity: number;
  /** Calibrated relevance, 0..1 with 0 = unrelated; what the gate compares with `minScore`. */
  relevance: number;
  /** Ranking score: relevance plus a tie-break of at most the recall margin (importance, use, recency). */
  score: number;
}

/**
 * What a completed chat turn answered, recorded under the turn's idempotency key in the same
 * atomic step that stores the reply: a retry with that key answers from it, even after the reply
 * was folded into the summary.
 */
export interface TurnOutcome {
  /** Id of the stored reply message. */
  id: string;
  content: string;
  tool_calls?: ToolCall[] | undefined;
  finishReason: string | null;
  model: string;
}

/** A JSON object as an upstream sends or takes it. */
export type JsonObject = Record<string, unknown>;

/** Which scale a candidate's relevance is on; each has its own calibrated gate (see `relevanceOf`). */
export type RelevanceScale = "dense" | "sparse" | "hybrid" | "rrf" | "dbsf";

/** A candidate as the fact store returns it: the index's score and, when known, each part's own. */
export interface RecallCandidate {
  fact: Fact;
  /** The index's score in the store's mode (cosine (1 + cos) / 2, BM25 inner product, or fused). */
  similarity: number;
  /** Upstash normalized cosine of the dense part, 0..1 with 0.5 = orthogonal. */
  dense?: number | undefined;
  /** BM25 inner product of the sparse part, >= 0. */
  sparse?: number | undefined;
}
