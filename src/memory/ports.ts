import type {
  Fact,
  FactType,
  SessionRef,
  SessionSettings,
  SessionSnapshot,
  StoredMessage,
  Summary,
  SummaryMethod,
} from "./types.ts";

/** Options of one append. */
export interface AppendOptions {
  /** The session's owner; recorded on first write. A different user on a later write is rejected. */
  userId?: string | undefined;
  /** Idle TTL refreshed on every key of the session. */
  ttlSeconds: number;
  /** Also return the session snapshot after the append, in the same round trip. */
  withSnapshot?: boolean | undefined;
  /**
   * When the batch carries system messages that differ from the pinned ones, they replace them
   * (a client that changed its system prompt). Default false: system messages accumulate.
   */
  replaceSystem?: boolean | undefined;
}

export interface AppendResult {
  /** One entry per input message, in order; `duplicate` when its id was already stored. */
  added: { id: string; tokens: number; duplicate: boolean }[];
  windowCount: number;
  windowTokens: number;
  snapshot?: SessionSnapshot | undefined;
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

/** Short-term memory of sessions: window, pinned system messages, summary, archive. */
export interface SessionStore {
  /** One round trip. Idempotent on message ids. */
  append(ref: SessionRef, messages: StoredMessage[], options: AppendOptions): Promise<AppendResult>;
  /** One round trip, an atomic snapshot. */
  read(ref: SessionRef): Promise<SessionSnapshot>;
  putSettings(ref: SessionRef, settings: SessionSettings, ttlSeconds: number): Promise<SessionSettings>;
  reset(ref: SessionRef, options: { keepSystem: boolean }): Promise<ResetResult>;
  /** Deletes every key of the session and its index entries. Returns whether it existed. */
  destroy(ref: SessionRef): Promise<boolean>;
  /** Compare-and-set commit of a compression, one round trip. */
  commitCompression(ref: SessionRef, commit: CompressionCommit): Promise<CommitOutcome>;
  /** Takes the compression lock; returns false when someone else holds it. */
  acquireLock(ref: SessionRef, token: string, ttlMs: number): Promise<boolean>;
  /** Releases the lock only if `token` still holds it. */
  releaseLock(ref: SessionRef, token: string): Promise<void>;
  history(ref: SessionRef, page: { offset: number; limit: number }): Promise<HistoryPage>;
  /** Session ids of one user, most recent first. */
  userSessions(tenant: string, userId: string): Promise<string[]>;
}

/** Working memory (seed 003): notes (key/value) and a scratchpad (append-only list). */
export interface WorkingMemoryStore {
  setNote(ref: SessionRef, key: string, value: string, ttlSeconds: number): Promise<void>;
  getNotes(ref: SessionRef): Promise<Record<string, string>>;
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

export interface FactQuery {
  text: string;
  topK: number;
  types?: FactType[] | undefined;
}

/** The access fields of one recalled fact. */
export interface FactAccess {
  id: string;
  accessCount: number;
  lastAccessedAt: number;
}

export interface FactPage {
  facts: Fact[];
  /** Empty when there are no more. */
  nextCursor: string;
}

/** Long-term facts (Upstash Vector in production). */
export interface FactStore {
  upsert(scope: FactScope, facts: Fact[]): Promise<void>;
  query(scope: FactScope, query: FactQuery): Promise<{ fact: Fact; similarity: number }[]>;
  get(scope: FactScope, ids: string[]): Promise<(Fact | null)[]>;
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
  | { op: "skip"; text: string };

/** Turns conversation messages into fact operations against the most similar existing facts. */
export interface FactExtractor {
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

/** A chat-completion model (OpenAI-compatible in production). */
export interface ChatModel {
  complete(request: ChatRequest): Promise<{ content: string; model: string; usage: ChatUsage | null }>;
  /** Yields content deltas in order. */
  stream(request: ChatRequest): AsyncIterable<string>;
}

/** Counts tokens of untrusted text with a bounded worst case. */
export interface TokenCounter {
  count(text: string): number;
}
