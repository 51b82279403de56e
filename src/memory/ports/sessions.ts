/**
 * @module What the domain needs from the session stores: the window, summary and settings of a session (one round trip per operation), the user's session index, and working notes.
 */
import type { Fact, SessionRef, SessionSettings, SessionSnapshot, SessionTotals, StoredMessage, Summary, TurnOutcome } from "../model.ts";

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
  /**
   * Per message, whether the client gave its `ts`. Each such message that is new must not be
   * older than the session's newest stored message, else nothing is stored (`MemoryError`
   * "invalid", see `tsBeforePrevious`). Undefined: no message is checked.
   */
  dated?: readonly boolean[] | undefined;
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
  /** Whether the session exists, and its stored owner (null: none); one round trip. */
  ownership(ref: SessionRef): Promise<{ exists: boolean; owner: string | null }>;
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
  exportSessions(
    tenant: string,
    userId: string,
    page: { offset: number; limit: number; maxBytes?: number },
  ): Promise<{ sessions: SessionDump[]; next: number | null }>;
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
