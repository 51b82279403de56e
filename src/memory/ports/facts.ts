/**
 * @module What the domain needs from the long-term stores: a user's facts (Vector), the per-user counters beside them, and fact snapshots.
 */
import type { FactFilter } from "../facts/filter.ts";
import type { Fact, FactType, RecallCandidate, RelevanceScale } from "../model.ts";

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
/** A held learning lock: its owner token and the facts recent learning turns of the user wrote. */
export interface LearningLease {
  token: string;
  /** Ids of facts the user's recent learning turns wrote, newest first (read them by id: a query may not show them yet). */
  written: string[];
}
/**
 * Serializes one user's learning turns, so each turn reads what the one before it wrote and no two
 * turns supersede the same fact in parallel (see docs/learning.md).
 */
export interface LearningLocks {
  /** Takes the user's learning lock for `ttlMs` unless another holder has it (then null). */
  tryAcquire(scope: FactScope, token: string, ttlMs: number): Promise<LearningLease | null>;
  /**
   * Records `written` as written by a recent learning turn and releases the lock if `token` still
   * holds it. Records nothing when the user was erased at or after `since` (an erase wins).
   */
  release(scope: FactScope, token: string, written: readonly string[], since: number, now: number): Promise<void>;
}
export interface FactQuery {
  text: string;
  /**
   * Other wordings of the same query (the question about "the user" asked in the first person, or
   * the other way round). The store searches every wording in the same request and gives each fact
   * its best score per part over them.
   */
  also?: readonly string[] | undefined;
  /**
   * On a hybrid index fused in the Worker, the one text the sparse part searches instead of every
   * wording (BM25 reads a query's words as present or not, so one text holding the wordings' words
   * finds what each wording finds); the dense part still searches every wording. Default: each
   * wording is searched in both parts.
   */
  sparseText?: string | undefined;
  topK: number;
  types?: FactType[] | undefined;
  /** Agent, time and metadata; the store applies it in its query (see `FactFilter`). */
  filter?: FactFilter | undefined;
}
/** What a {@link FactStore.query} found, and the scale of the candidates' scores. */
export interface FactMatches {
  /**
   * The scale the candidates' scores are on, as the store asked the index (its mode, its fusion,
   * or dense for vectors embedded in the Worker): recall judges relevance on this scale.
   */
  scale: RelevanceScale;
  candidates: RecallCandidate[];
  /** Queries the store asked the index (a batch counts each): what the index embeds and bills. */
  queries?: number | undefined;
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
  query(scope: FactScope, query: FactQuery): Promise<FactMatches>;
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
  /**
   * The facts `fact` superseded: those whose `supersededBy` is its id (a store may cap them at a
   * hundred; one statement rarely replaces more than one). One round trip.
   */
  supersededBy(scope: FactScope, fact: Fact): Promise<Fact[]>;
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
