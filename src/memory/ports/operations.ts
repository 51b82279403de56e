/**
 * @module What the domain needs to be operated: logging, traces, metrics, the audit log and the erase journal.
 */
import type { AuditEntry } from "../observe/audit.ts";
import type { MetricsBatch, StoredMetrics } from "../observe/metrics.ts";
import type { Trace } from "../observe/trace.ts";
import type { FactScope } from "./facts.ts";

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
