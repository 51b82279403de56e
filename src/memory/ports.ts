import type { FactFilter } from "./fact-filter.ts";
import type { MetricsBatch, StoredMetrics } from "./metrics.ts";
import type { Trace } from "./trace.ts";
import type { AuditEntry } from "./audit.ts";
import type { RecallCandidate } from "./recall.ts";
import type {
  Fact,
  FactType,
  SessionRef,
  SessionSettings,
  SessionSnapshot,
  SessionTotals,
  StoredMessage,
  Summary,
  SummaryMethod,
  ToolCall,
  TurnOutcome,
} from "./types.ts";

/** Options of one append. */
export interface AppendOptions {
  /** The session's owner; recorded on first write. A different user on a later write is rejected. */
  userId?: string | undefined;
  /** Idle TTL refreshed on every key of the session. */
  ttlSeconds: number;
  /**
   * Also return the session snapshot after the append, in the same round trip: with a bound only
   * the newest messages a context of that budget can use (see {@link WindowBound}), with `true`
   * the whole window. Without it the result carries the totals only.
   */
  withSnapshot?: WindowBound | boolean | undefined;
  /**
   * When the batch carries system messages that differ from the pinned ones, they replace them
   * (a client that changed its system prompt). Default false: system messages accumulate.
   */
  replaceSystem?: boolean | undefined;
  /**
   * Facts of the owner to queue for long-term memory in the same atomic step (see
   * {@link UserStore.pendingFacts}). Queued only when the owner check passes. Needs `userId`.
   */
  facts?: Fact[] | undefined;
  /** Facts of the owner recalled by this turn, counted in the same step (see {@link UserStore.recordRecalls}). */
  recalled?: readonly string[] | undefined;
  /**
   * The chat turn this append belongs to, by its idempotency key. When the key already has an
   * outcome, nothing is stored and the result carries that outcome. Otherwise, with `outcome`, the
   * outcome is recorded for the key once the batch stored something (the first one wins).
   * Outcomes live as long as the session, the newest {@link TURN_OUTCOMES_KEPT} of them.
   */
  turn?: { key: string; outcome?: TurnOutcome | undefined } | undefined;
  /**
   * What names the client request this batch comes from (a hash of it; 16-64 hex digits). When the
   * session's last write that stored something was a batch with the same tag (no reply stored
   * since), this batch is the client's automatic retry of a request that failed (an SDK retries a
   * 5xx with the same body): nothing is stored again and its messages are reported as duplicates.
   */
  retryTag?: string | undefined;
  /** The session's title, kept from the first write that names one (a session list shows it). */
  title?: string | undefined;
  /**
   * Refuse the append (nothing stored, `MemoryError` "conflict") when the owner was erased at or
   * after this time (ms): the reply of a chat turn that started before an erase must not bring
   * the session back. The owner is `userId`, else the session's stored owner.
   */
  unlessErasedSince?: number | undefined;
}

/** Turn outcomes a session keeps for retries; a retry of an older turn is a new turn. */
export const TURN_OUTCOMES_KEPT = 200;

/**
 * What a bounded read returns of the window: the newest messages a context can use. Without the
 * window-count limit, messages of importance >= `importanceThreshold` are read back from the newest
 * until they hold more than `allowance` tokens (less the pinned system messages) at a message
 * boundary that is not a tool result, so the context's selection (see `selectWindow`) picks
 * exactly what it would pick from the whole window; low-importance messages further back than
 * {@link WINDOW_SCAN_FACTOR} allowances are never read.
 */
export interface WindowBound {
  /** Tokens the context may fill at most (the budget less the reply reserve). */
  allowance: number;
  /** The deployment's window-count limit (0 = none); a session's own setting wins. */
  limit: number;
  importanceThreshold: number;
}

/** A bounded read looks at most this many allowances of tokens back. */
export const WINDOW_SCAN_FACTOR = 4;

/** What one compression pass reads of the window's oldest messages, at most. */
export interface HeadLimits {
  maxTokens: number;
  maxMessages: number;
}

export interface AppendResult {
  /** One entry per input message, in order; `duplicate` when its id was already stored. */
  added: { id: string; tokens: number; duplicate: boolean }[];
  windowCount: number;
  windowTokens: number;
  /** The session's totals after the append (what the stats need). */
  totals: SessionTotals;
  /** The session's own settings. */
  settings: SessionSettings;
  snapshot?: SessionSnapshot | undefined;
  /** With `turn`: the outcome recorded for its key (earlier, or by this append), else null. */
  outcome?: TurnOutcome | null | undefined;
}

/** What a compression read and wants to replace; the commit checks all of it atomically. */
export interface CompressionCommit {
  epoch: number;
  /** Summary version read with the snapshot (0 when there was none). */
  expectedVersion: number;
  /** Ids of the window prefix that was summarized, oldest first. */
  prefixIds: string[];
  summary: Summary;
  /** Archived originals kept per session; older ones are dropped. 0 keeps none. */
  archiveLimit: number;
  ttlSeconds: number;
}

export type CommitOutcome =
  | { committed: true; removedTokens: number }
  | { committed: false; reason: "reset" | "version_changed" | "prefix_changed" | "missing" };

export interface ResetResult {
  removedMessages: number;
  keptSystem: number;
}

export interface HistoryPage {
  summary: Summary | null;
  /** Archived originals, oldest first. */
  archived: StoredMessage[];
  total: number;
}

/** A per-session setting change: a number sets it, `null` restores the default. */
export type SettingsChange = { [K in keyof SessionSettings]?: number | null };

/** Everything stored about one session, for an export. */
export interface SessionDump {
  sessionId: string;
  snapshot: SessionSnapshot;
  archived: StoredMessage[];
  notes: Record<string, string>;
  scratchpad: string[];
  /** Recorded turn outcomes (the replies retries are answered with). */
  turns: TurnOutcome[];
}

/** What a session list shows of one session. */
export interface SessionListEntry {
  sessionId: string;
  createdAt: number;
  /** Last write, ms. */
  updatedAt: number;
  /** Conversation messages so far: those folded into the summary plus the window (system excluded). */
  messages: number;
  /** The first user message, clipped; null when there is none yet. */
  title: string | null;
}

/** A page of a user's sessions, newest activity first. */
export interface SessionIdPage {
  ids: string[];
  /** The same sessions, with what a session list shows. */
  sessions: SessionListEntry[];
  /** Offset of the next page in the user's index; null at the end. */
  next: number | null;
}

export interface UserSessionsErased {
  sessions: number;
  messages: number;
  archived: number;
  notes: number;
  /** Index entries examined that belonged to nobody or to another user (dropped, not erased). */
  skipped: number;
  /** More of the user's index is left for another call. */
  more: boolean;
}

export interface IndexSweep {
  /** Pass to the next call; "" when the sweep reached the end of the tenant's index. */
  nextCursor: string;
  /** Sessions whose index entries were removed because their keys had expired. */
  removed: string[];
}

/** Short-term memory of sessions: window, pinned system messages, summary, archive. */
export interface SessionStore {
  /** One round trip. Idempotent on message ids; the owner check runs before any write. */
  append(ref: SessionRef, messages: StoredMessage[], options: AppendOptions): Promise<AppendResult>;
  /** The session's stored owner (null: no session, or one no user owns); one round trip. */
  owner(ref: SessionRef): Promise<string | null>;
  /**
   * One round trip, an atomic snapshot. With a bound, only the newest window messages a context
   * of that budget can use come back (plus the counts and totals), whatever the window's length.
   */
  read(ref: SessionRef, bound?: WindowBound): Promise<SessionSnapshot>;
  /** One round trip: the snapshot with one page of the window (`offset` from the oldest). */
  readPage(ref: SessionRef, page: { offset: number; limit: number }): Promise<SessionSnapshot>;
  /**
   * One round trip: the snapshot with the window's oldest messages up to the limits (what one
   * compression pass folds), plus the next message when there is one, so a cut can keep a tool
   * call and its results together.
   */
  readHead(ref: SessionRef, limits: HeadLimits): Promise<SessionSnapshot>;
  /** Merges the named settings atomically (fields not named keep their value); refreshes the TTL. */
  updateSettings(ref: SessionRef, change: SettingsChange, defaultTtlSeconds: number): Promise<SessionSettings>;
  reset(ref: SessionRef, options: { keepSystem: boolean }): Promise<ResetResult>;
  /** Compare-and-set commit of a compression, one round trip. Resets the failure count. */
  commitCompression(ref: SessionRef, commit: CompressionCommit): Promise<CommitOutcome>;
  /** Counts a failed summarizer call; returns the consecutive failures so far. */
  recordSummaryFailure(ref: SessionRef): Promise<number>;
  /** Takes the compression lock; returns false when someone else holds it. */
  acquireLock(ref: SessionRef, token: string, ttlMs: number): Promise<boolean>;
  /** Releases the lock only if `token` still holds it. */
  releaseLock(ref: SessionRef, token: string): Promise<void>;
  history(ref: SessionRef, page: { offset: number; limit: number }): Promise<HistoryPage>;
  /** Ids of sessions the user owns, most recent first, one page per call. */
  userSessions(tenant: string, userId: string, page: { offset: number; limit: number }): Promise<SessionIdPage>;
  /**
   * Everything stored about up to `limit` of the user's own sessions, from `offset` on; with
   * `maxBytes`, the page ends after the session that takes its stored text past it.
   */
  exportSessions(tenant: string, userId: string, page: { offset: number; limit: number; maxBytes?: number }): Promise<{ sessions: SessionDump[]; next: number | null }>;
  /**
   * Deletes up to `limit` sessions the user owns (every key and index entry); entries of the
   * user's index that name another user's or no session are dropped without touching it. The
   * counts go into the user's running erase job in the same atomic step (see {@link EraseJournal}).
   */
  eraseUserSessions(tenant: string, userId: string, limit: number): Promise<UserSessionsErased>;
  /** One page of the tenant-index sweep; expired sessions also leave their owner's index. */
  sweepIndexes(tenant: string, cursor: string): Promise<IndexSweep>;
}

/** What one session's notes may hold: how many, and their stored size in bytes (keys and values). */
export interface NoteCaps {
  maxNotes: number;
  maxBytes: number;
}

/** Why a note was not set. */
export type NoteRefusal = "too_many" | "too_large";

/** Working memory: notes (key/value) and a scratchpad (append-only list) per session. */
export interface WorkingMemoryStore {
  /**
   * Sets one note unless that would take the session past `caps` (checked in the same atomic
   * step; replacing a note counts its new size only). Returns why not, or null when set.
   */
  setNote(ref: SessionRef, key: string, value: string, ttlSeconds: number, caps?: NoteCaps): Promise<NoteRefusal | null>;
  getNotes(ref: SessionRef): Promise<Record<string, string>>;
  /** One page of the notes (`cursor` "" starts; `nextCursor` null on the last page). */
  getNotesPage(ref: SessionRef, cursor: string, limit: number): Promise<{ notes: Record<string, string>; nextCursor: string | null }>;
  getNote(ref: SessionRef, key: string): Promise<string | null>;
  deleteNote(ref: SessionRef, key: string): Promise<boolean>;
  clearNotes(ref: SessionRef): Promise<number>;
  appendScratch(ref: SessionRef, entry: string, ttlSeconds: number, maxEntries: number): Promise<number>;
  getScratch(ref: SessionRef): Promise<string[]>;
  clearScratch(ref: SessionRef): Promise<number>;
}

/** The facts of one user of one tenant. */
export interface FactScope {
  tenant: string;
  userId: string;
}

/** The access fields of one recalled fact. */
export interface FactAccess {
  id: string;
  accessCount: number;
  lastAccessedAt: number;
}

/** Recalls counted since the last merge into the fact store. */
export interface RecallCount {
  id: string;
  count: number;
  lastAccessedAt: number;
}

/**
 * Per-user records kept beside the sessions: the erase tombstone, facts waiting to reach the fact
 * store, and recall counts waiting to be merged into it.
 */
export interface UserStore {
  /** When the user was last erased (ms), or null. */
  erasedAt(scope: FactScope): Promise<number | null>;
  /** Records an erase at `at` and drops the user's queued facts and recall counts. */
  markErased(scope: FactScope, at: number): Promise<void>;
  /** Facts queued by appends that the fact store has not confirmed yet (at most `limit`). */
  pendingFacts(scope: FactScope, limit: number): Promise<Fact[]>;
  /** Unqueues facts that are now in the fact store (entries changed since they were read stay). */
  confirmFacts(scope: FactScope, facts: readonly Fact[]): Promise<{ erasedAt: number | null }>;
  /** Users of a tenant with queued facts, at most `limit`. */
  usersWithPendingFacts(tenant: string, limit: number): Promise<string[]>;
  /** Counts recalls (one increment per id); never loses a concurrent increment. */
  recordRecalls(scope: FactScope, ids: readonly string[], at: number): Promise<void>;
  /** Recall counts not yet merged into the fact store (at most `limit`). */
  recallCounts(scope: FactScope, limit: number): Promise<RecallCount[]>;
  /** Subtracts counts that were merged; recalls counted meanwhile stay. */
  settleRecalls(scope: FactScope, merged: readonly RecallCount[]): Promise<void>;
  /** Users of a tenant with recall counts to merge, at most `limit`. */
  usersWithRecalls(tenant: string, limit: number): Promise<string[]>;
}

export interface FactQuery {
  text: string;
  /**
   * Other wordings of the same query (the question about "the user" asked in the first person, or
   * the other way round). The store searches every wording in the same request and gives each fact
   * its best score per part over them.
   */
  also?: readonly string[] | undefined;
  topK: number;
  types?: FactType[] | undefined;
  /** Agent, time and metadata; the store applies it in its query (see `FactFilter`). */
  filter?: FactFilter | undefined;
}

/** A text and its content id (see `factId`). */
export interface ContentRef {
  contentId: string;
  text: string;
}

/** What a store knows of a fact without reading it (see {@link FactStore.findByContent}). */
export interface KnownFact {
  id: string;
  version: number;
  importance: number;
  createdAt: number;
  updatedAt: number;
}

/** See {@link FactStore.findByContent}. */
export interface ContentMatch {
  holder: Fact | null;
  idTaken: boolean;
  /** Only when asked for (`known: true`): the holder as the store knows it unread; `holder` is then null. */
  known?: KnownFact | undefined;
}

/** A restatement that changes nothing but a fact's version and `updatedAt` (see {@link FactStore.refresh}). */
export interface FactRefresh {
  id: string;
  version: number;
  updatedAt: number;
}

export interface FactPage {
  facts: Fact[];
  /** Empty when there are no more. */
  nextCursor: string;
}

/** Long-term facts (Upstash Vector in production). */
export interface FactStore {
  /**
   * Resolves once the store is known to fit the deployment's configuration (one check per
   * process); rejects with `UpstreamUnavailable` (`not_configured`) naming what to fix. Optional:
   * a store without such a check is always ready.
   */
  ready?(): Promise<void>;
  upsert(scope: FactScope, facts: Fact[]): Promise<void>;
  query(scope: FactScope, query: FactQuery): Promise<RecallCandidate[]>;
  get(scope: FactScope, ids: string[]): Promise<(Fact | null)[]>;
  /**
   * Per content id, in order: the fact whose current text has it (edited or not) and whether a
   * fact uses it as its own id (then a new fact needs another id). One round trip. With
   * `known: true` a store that knows a holder's id, version, importance and times without reading
   * it may answer with those (`known`) instead of the fact.
   */
  findByContent(scope: FactScope, contents: ContentRef[], options?: { known?: boolean }): Promise<ContentMatch[]>;
  /**
   * Sets version and `updatedAt` of existing facts without reading them (a metadata PATCH; nothing
   * else changes). Returns the ids it did not find: those facts are gone and nothing was created.
   */
  refresh(scope: FactScope, refreshes: FactRefresh[]): Promise<string[]>;
  /** Updates metadata only (no re-embedding). */
  patch(scope: FactScope, facts: Fact[]): Promise<void>;
  /**
   * Records recalls: sets only the access fields, so an edit made since the fact was read is never
   * reverted. A fact deleted meanwhile stays deleted.
   */
  touch(scope: FactScope, accesses: FactAccess[]): Promise<void>;
  delete(scope: FactScope, ids: string[]): Promise<number>;
  list(scope: FactScope, cursor: string, limit: number): Promise<FactPage>;
  deleteAll(scope: FactScope): Promise<number>;
  /** Every scope that holds facts (for the cron sweep). */
  scopes(): Promise<FactScope[]>;
}

/** One snapshot of a user's facts. */
export interface FactSnapshot {
  /** When it was taken, ms. */
  takenAt: number;
  facts: Fact[];
}

/**
 * Snapshots of each user's facts (an R2 bucket in production), the newest few kept per user. An
 * erase removes every snapshot of the user, so erased data never comes back from a backup.
 */
export interface BackupStore {
  /** When the newest snapshot of the user was taken (ms), or null when there is none. */
  newestAt(scope: FactScope): Promise<number | null>;
  /** Writes a snapshot, then drops the oldest beyond the retention count. */
  write(scope: FactScope, snapshot: FactSnapshot): Promise<void>;
  /** The newest snapshot, or null. */
  latest(scope: FactScope): Promise<FactSnapshot | null>;
  /** Deletes every snapshot of the user; returns how many there were. */
  purge(scope: FactScope): Promise<number>;
  /** How many snapshots of the user there are. */
  count(scope: FactScope): Promise<number>;
}

export interface SummaryRequest {
  previous: Summary | null;
  /** The messages to fold into the summary, oldest first. */
  messages: StoredMessage[];
  /** The summary must stay within this many tokens. */
  maxTokens: number;
}

/** Folds messages into the rolling summary. */
export interface Summarizer {
  summarize(request: SummaryRequest): Promise<{ text: string; method: SummaryMethod }>;
}

export type FactOperation =
  | { op: "add"; text: string; type: FactType; importance: number }
  | { op: "update"; id: string; text: string; type: FactType; importance: number }
  /** `text` replaces stored fact `id`: a new fact is added and `id` stops being true (kept in history, no longer recalled). */
  | { op: "supersede"; id: string; text: string; type: FactType; importance: number }
  | { op: "skip"; text: string };

/** Turns conversation messages into fact operations against the most similar existing facts. */
export interface FactExtractor {
  /** What produced the operations, with its version (e.g. the prompt's); recorded on each fact written as `metadata.learnedBy`. */
  readonly version?: string | undefined;
  extract(request: { messages: StoredMessage[]; existing: Fact[] }): Promise<FactOperation[]>;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  name?: string | undefined;
  tool_calls?: StoredMessage["tool_calls"];
  tool_call_id?: string | undefined;
}

export interface ChatRequest {
  messages: ChatMessage[];
  model?: string | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  /** Cancels the request (e.g. the HTTP client went away); the model then stops generating. */
  signal?: AbortSignal | undefined;
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** A JSON object as an upstream sends or takes it. */
export type JsonObject = Record<string, unknown>;

/**
 * A request passed through to the model: every field the client sent (`tools`, `tool_choice`,
 * `response_format`, `temperature`, `stream_options`, ...) unchanged, with memory's messages.
 */
export interface PassThroughRequest {
  /** The client's fields, without `messages` and `stream`. */
  fields: JsonObject;
  messages: ChatMessage[];
  signal?: AbortSignal | undefined;
}

/** The assistant message a model call produced, as memory stores it. */
export interface ModelReply {
  /** The text ("" when the reply only calls tools). */
  content: string;
  tool_calls?: ToolCall[] | undefined;
  finishReason: string | null;
  model: string;
  usage: ChatUsage | null;
}

/** A completion as the upstream sent it, and the reply it holds. */
export interface PassThroughAnswer {
  body: JsonObject;
  reply: ModelReply;
}

/** One streamed chunk as the upstream sent it, and the text it adds. */
export interface PassThroughChunk {
  chunk: JsonObject;
  /** Content text this chunk adds ("" for role, tool-call, finish and usage chunks). */
  text: string;
}

/** A stream of chunks; `reply()` is the assembled reply once iteration has ended. */
export interface PassThroughStream extends AsyncIterable<PassThroughChunk> {
  reply(): ModelReply;
}

/** A chat-completion model (OpenAI-compatible in production). Failures are `LlmError`s. */
export interface ChatModel {
  complete(request: ChatRequest): Promise<{ content: string; model: string; usage: ChatUsage | null }>;
  /** Yields content deltas in order. */
  stream(request: ChatRequest): AsyncIterable<string>;
  /** One completion of a passed-through request; the answer comes back as the upstream sent it. */
  completeRaw(request: PassThroughRequest): Promise<PassThroughAnswer>;
  /** The same, streamed: the upstream's chunks as it sent them (tool-call deltas, usage chunk). */
  streamRaw(request: PassThroughRequest): PassThroughStream;
  /** The upstream's model list as it sent it; the configured model alone when it has none (404). */
  models(): Promise<JsonObject>;
}

/** Counts tokens of untrusted text with a bounded worst case. */
export interface TokenCounter {
  count(text: string): number;
}

/** Structured logs: one line per event, never message contents. */
export interface MemoryLogger {
  /** Events of background work (a compression, facts learned): below the one info line per request. */
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** A trace id and when its turn started, for a list of a session's recent traces. */
export interface TraceRef {
  traceId: string;
  kind: string;
  at: number;
}

/**
 * Per-turn traces of a tenant (see `trace.ts`). They hold contents (the query, candidate texts),
 * so a sealing decorator wraps this port like the other stores.
 */
export interface TraceStore {
  /**
   * Stores the trace for `ttlSeconds`, lists it under its session and its user; one round trip.
   * A trace of a user erased at or after the turn began (`trace.at`) is not stored.
   */
  put(tenant: string, trace: Trace, ttlSeconds: number): Promise<void>;
  /**
   * Deletes up to `limit` of the user's traces, counting them into the user's running erase job
   * in the same atomic step; `more` when some are left.
   */
  eraseUser(tenant: string, userId: string, limit: number): Promise<{ removed: number; more: boolean }>;
  /** The trace, or null when it is unknown, expired or another tenant's. */
  get(tenant: string, traceId: string): Promise<Trace | null>;
  /** The session's most recent traces, newest first. */
  recent(tenant: string, sessionId: string, limit: number): Promise<TraceRef[]>;
}

/** Tenant counters and samples behind `GET /v1/stats`. */
export interface MetricsStore {
  /** Adds one request's batch; one round trip (a pipeline). */
  record(tenant: string, batch: MetricsBatch, at: number): Promise<void>;
  /** Everything the stats need, in one round trip. */
  read(tenant: string, at: number): Promise<StoredMetrics>;
}

/** Where audit entries go: per tenant, capped, newest kept. */
export interface AuditLog {
  /**
   * Records one entry in the log of its stream (security events apart from high-volume writes,
   * each capped on its own); with `throttle`, at most a fixed number per credential and minute.
   */
  append(tenant: string, entry: AuditEntry, options?: { throttle?: boolean }): Promise<void>;
  /** Entries of both streams with `ts` > `since`, oldest first, at most `limit` (more when the last ones share a millisecond). */
  list(tenant: string, query: { since: number; limit: number }): Promise<AuditEntry[]>;
}

/** Counts of what an erase removed, summed over the requests it took. */
export interface ErasedCounts {
  sessions: number;
  messages: number;
  archives: number;
  notes: number;
  facts: number;
  /** Backup snapshots removed (0 without a `BACKUPS` bucket). */
  backups: number;
  /** Stored turn traces removed (they hold queries and recalled fact texts). */
  traces: number;
}

/** The parts of an erase outside Redis: their counts go through `EraseJournal.plan` / `settle`. */
export type ErasePart = "facts" | "backups";

/**
 * How an erase request ends: `running` (something is left, or a parallel request is mid-step:
 * call again), `closed` (this request finished the erase: it records the receipt), `replay` (the
 * erase was finished already - by a parallel request, or by one whose answer was lost - and these
 * are its receipt and totals).
 */
export interface EraseOutcome {
  state: "running" | "closed" | "replay";
  receiptId: string;
  startedAt: number;
  removed: ErasedCounts;
}

/** An erase that runs over several requests: one record per user until it is done. */
export interface EraseJob {
  receiptId: string;
  startedAt: number;
  removed: ErasedCounts;
}

/**
 * The durable progress of each user's erase. Redis steps (sessions, traces) count what they delete
 * into the running job in the same atomic step; a part outside Redis is counted in two steps around
 * its delete - `plan` records what is there, `settle` counts it as removed - so a fault, a retry or
 * a parallel request never loses or doubles a count (a `plan` over an unsettled one first counts
 * what has gone since).
 */
export interface EraseJournal {
  /** The running erase of the user, or a new one with `receiptId`. */
  begin(scope: FactScope, receiptId: string, at: number): Promise<EraseJob>;
  /** Before deleting a part: `remaining` items of it are there now. */
  plan(scope: FactScope, part: ErasePart, remaining: number): Promise<void>;
  /** After deleting a part: what was planned is removed. */
  settle(scope: FactScope, part: ErasePart): Promise<void>;
  /**
   * Ends a request of the erase (`more`: this request left something). Closes the job when
   * nothing is left or pending; exactly one request gets `closed` per receipt. A job that removed
   * nothing after an earlier one closed answers that one's receipt (`replay`).
   */
  finish(scope: FactScope, more: boolean, now: number): Promise<EraseOutcome>;
}

/** The outcome of counting one request against rate limits. */
export interface RateDecision {
  allowed: boolean;
  /** Requests allowed per window. */
  limit: number;
  remaining: number;
  /** Epoch ms when the window frees up. */
  reset: number;
}

export interface RateLimiter {
  /** Counts one request against every identifier (one round trip); the tightest result wins. */
  check(ids: readonly string[]): Promise<RateDecision>;
  /** A refusal known in this isolate without asking Redis (an identifier blocked until its reset), else null. */
  knownBlocked(ids: readonly string[]): RateDecision | null;
}
