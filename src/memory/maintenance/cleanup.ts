/** @module Cron cleanup run, one at a time under a run lock: prunes expired session index entries, delivers queued facts, merges recalls, sweeps dead facts. */
import { errorText } from "../errors.ts";
import { deliverPendingFacts } from "../facts/learning.ts";
import { recordAccess, shouldRetain } from "../facts/lifecycle.ts";
import type { MemoryOptions } from "../options.ts";
import type { FactScope, FactStore, LearningLocks, UserStore } from "../ports/facts.ts";
import type { RelationKeys } from "../ports/llm.ts";
import type { RunLock } from "../ports/maintenance.ts";
import type { Fact } from "../model.ts";
import { repairDuplicates } from "./duplicates.ts";
import type { SessionStore } from "../ports/sessions.ts";

/** Where the last sweep stopped, kept between cron runs. */
export interface CleanupCursor {
  /** Namespace order key (`tenant\0user`) of the scope being swept; "" = from the start. */
  scope: string;
  /** Range cursor inside that scope. */
  factCursor: string;
  /** Session-index cursor per tenant. */
  sessions: Record<string, string>;
}

/**
 * How long a cleanup run's lease lasts, ms: 16 minutes. A cron invocation runs at most 15 minutes
 * of wall time (the Workers limit for Cron Triggers, docs/deploy.md) and takes the lease after it
 * starts, so the lease outlasts every run the platform lets live; the extra minute is a margin on
 * that limit. A run whose isolate died without releasing it holds up at most the next trigger (the
 * cron fires every 15 minutes): that one skips, the one after proceeds.
 */
export const CLEANUP_LEASE_MS = 16 * 60_000;

export interface CleanupDeps {
  /**
   * The deployment-wide lease a run takes before it does anything and releases when done: two
   * overlapping runs (a slow one and the next trigger, or a manual one) would otherwise both merge
   * the same recall counts into the facts, and both advance the sweep and repair duplicates.
   */
  runLock: RunLock;
  /**
   * How long the run's lease lasts, ms: longer than a run can take.
   * @default 960000 (16 minutes: CLEANUP_LEASE_MS)
   */
  leaseMs?: number | undefined;
  /** A fresh unique id (the lease's owner token is made from it). */
  newId(): string;
  /**
   * The cron's other work (the re-seal after a key rotation, the backups), run after the cleanup
   * while the lease is still held, so two runs never do it at once either. Given the cleanup's
   * report; it handles its own failures.
   * @default none
   */
  thenHolding?: ((report: CleanupReport) => Promise<void>) | undefined;
  sessions: SessionStore;
  users: UserStore;
  facts: FactStore | null;
  tenants: readonly string[];
  loadCursor(): Promise<CleanupCursor | null>;
  saveCursor(cursor: CleanupCursor): Promise<void>;
  options: Pick<MemoryOptions, "factPolicies" | "decayFloor">;
  /** Reads a fact's single-valued relation; with it the sweep repairs relations with several current facts. Default: none. */
  relationKeys?: RelationKeys | null | undefined;
  /** The per-user learning lock the repair takes (so it never runs beside a learning turn). Default: none. */
  learningLocks?: LearningLocks | null | undefined;
  /** Facts examined per run before it stops; the next run continues from the saved cursor. */
  batch: number;
  now: number;
}

export interface CleanupReport {
  /**
   * Set when the run did nothing: `"locked"`, another cleanup run holds the run lock (it is
   * still going, or died less than a lease ago). Absent on a run that ran.
   */
  skipped?: "locked" | undefined;
  factsExamined: number;
  factsDeleted: number;
  scopesVisited: number;
  sessionEntriesRemoved: number;
  /** Queued facts of persisted messages delivered to the fact store (retries of failed deliveries). */
  factsDelivered: number;
  /** Facts whose recall counts were merged into the fact store. */
  recallsMerged: number;
  /** Current facts marked superseded because a newer current fact states the same single-valued relation. */
  duplicatesSuperseded: number;
  /** True when the fact sweep reached the end of the last scope (the next run starts over). */
  completedPass: boolean;
  /** Parts that failed this run (e.g. Vector down); the others still ran and the cursor was saved. */
  errors: string[];
}

/** Users per tenant whose queued facts or recall counts one run handles. */
const USERS_PER_RUN = 20;
/** Recall counts merged per user per run. */
const RECALLS_PER_USER = 500;

const orderKey = (s: FactScope): string => `${s.tenant}\u0000${s.userId}`;

const emptyReport = (): CleanupReport => ({
  factsExamined: 0,
  factsDeleted: 0,
  scopesVisited: 0,
  sessionEntriesRemoved: 0,
  factsDelivered: 0,
  recallsMerged: 0,
  duplicatesSuperseded: 0,
  completedPass: false,
  errors: [],
});

/**
 * One bounded cleanup run: removes index entries of expired sessions (from the tenant's and their
 * owner's index), delivers facts whose delivery failed, merges recall counts into the facts, drops
 * facts past their TTL or decayed below the floor, repairs relations left with several current
 * facts (the newest stays current), saves where it stopped, then runs `thenHolding`. All of it
 * holds the run lock: when another run holds it, this one does nothing and reports
 * `skipped: "locked"`. The lock is released whatever the run does (a failed release is reported;
 * the lease then expires).
 */
export async function runCleanup(deps: CleanupDeps): Promise<CleanupReport> {
  const token = `cl_${deps.newId()}`;
  if (!(await deps.runLock.tryAcquire(token, deps.leaseMs ?? CLEANUP_LEASE_MS))) return { ...emptyReport(), skipped: "locked" };
  const report = emptyReport();
  try {
    await cleanupHolding(deps, report);
    await deps.thenHolding?.(report);
    return report;
  } finally {
    await deps.runLock.release(token).catch((err: unknown) => {
      report.errors.push(`run lock: ${errorText(err)}`);
    });
  }
}

async function cleanupHolding(deps: CleanupDeps, report: CleanupReport): Promise<void> {
  const cursor: CleanupCursor = (await deps.loadCursor()) ?? { scope: "", factCursor: "", sessions: {} };
  const attempt = async (part: string, work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (err) {
      report.errors.push(`${part}: ${errorText(err)}`);
    }
  };

  for (const tenant of deps.tenants) {
    await attempt(`sessions of ${tenant}`, async () => {
      const page = await deps.sessions.sweepIndexes(tenant, cursor.sessions[tenant] ?? "");
      cursor.sessions[tenant] = page.nextCursor;
      report.sessionEntriesRemoved += page.removed.length;
    });
  }

  const facts = deps.facts;
  if (facts) {
    for (const tenant of deps.tenants) {
      await attempt(`fact delivery of ${tenant}`, () => deliverQueued(deps, facts, tenant, report));
      await attempt(`recall counts of ${tenant}`, () => mergeRecalls(deps, facts, tenant, report));
    }
    await attempt("facts", () => sweepFacts(facts, cursor, report, deps));
  }
  await deps.saveCursor(cursor);
}

async function deliverQueued(deps: CleanupDeps, facts: FactStore, tenant: string, report: CleanupReport): Promise<void> {
  for (const userId of await deps.users.usersWithPendingFacts(tenant, USERS_PER_RUN)) {
    report.factsDelivered += await deliverPendingFacts({ facts, users: deps.users }, { tenant, userId }, deps.now);
  }
}

/** Adds the counted recalls to each fact's access fields (a PATCH of those fields only). */
async function mergeRecalls(deps: CleanupDeps, facts: FactStore, tenant: string, report: CleanupReport): Promise<void> {
  for (const userId of await deps.users.usersWithRecalls(tenant, USERS_PER_RUN)) {
    const scope = { tenant, userId };
    const counts = await deps.users.recallCounts(scope, RECALLS_PER_USER);
    if (counts.length === 0) continue;
    const current = await facts.get(
      scope,
      counts.map((c) => c.id),
    );
    const accesses = counts.flatMap((c, i) => {
      const fact = current[i];
      if (!fact) return [];
      const touched = recordAccess(fact, c.lastAccessedAt);
      return [{ id: c.id, accessCount: fact.accessCount + c.count, lastAccessedAt: touched.lastAccessedAt }];
    });
    if (accesses.length > 0) await facts.touch(scope, accesses);
    await deps.users.settleRecalls(scope, counts);
    report.recallsMerged += accesses.length;
  }
}

/** Sweeps facts scope by scope until the batch is used up; `cursor` records where it stopped. */
async function sweepFacts(facts: FactStore, cursor: CleanupCursor, report: CleanupReport, deps: CleanupDeps): Promise<void> {
  const scopes = (await facts.scopes()).sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0));
  let index = scopes.findIndex((s) => orderKey(s) >= cursor.scope);
  if (index < 0) index = scopes.length;
  // The scope we stopped in is gone (erased): its range cursor means nothing elsewhere.
  const resumeAt = scopes[index];
  if (!resumeAt || orderKey(resumeAt) !== cursor.scope) cursor.factCursor = "";
  // The retained facts read of the scope being swept, for the duplicate repair when it is left.
  let kept: Fact[] = [];
  const repair = async (scope: FactScope): Promise<void> => {
    const read = kept;
    kept = [];
    if (!deps.relationKeys || read.length < 2) return;
    const repairDeps = { facts, users: deps.users, keys: deps.relationKeys, locks: deps.learningLocks ?? null, now: deps.now };
    try {
      report.duplicatesSuperseded += await repairDuplicates(repairDeps, scope, read);
    } catch (err) {
      report.errors.push(`duplicates of ${scope.tenant}/${scope.userId}: ${errorText(err)}`);
    }
  };
  while (index < scopes.length && report.factsExamined < deps.batch) {
    const scope = scopes[index]!;
    cursor.scope = orderKey(scope);
    report.scopesVisited += 1;
    const limit = Math.max(1, Math.min(1000, deps.batch - report.factsExamined));
    const page = await facts.list(scope, cursor.factCursor, limit);
    report.factsExamined += page.facts.length;
    const drop = page.facts.filter((f) => !shouldRetain(f, deps.now, deps.options)).map((f) => f.id);
    if (drop.length > 0) report.factsDeleted += await facts.delete(scope, drop);
    const dropped = new Set(drop);
    kept.push(...page.facts.filter((f) => !dropped.has(f.id) && f.supersededAt === undefined));
    // A scope swept over several runs is repaired within what each run read of it.
    if (page.nextCursor === "" || page.facts.length === 0 || report.factsExamined >= deps.batch) await repair(scope);
    if (page.nextCursor === "" || page.facts.length === 0) {
      index += 1;
      cursor.factCursor = "";
      const next = scopes[index];
      cursor.scope = next ? orderKey(next) : "";
    } else {
      // The range cursor marks a position, not an offset, so deleting behind it skips nothing.
      cursor.factCursor = page.nextCursor;
    }
  }
  report.completedPass = index >= scopes.length;
  if (report.completedPass) {
    cursor.scope = "";
    cursor.factCursor = "";
  }
}
