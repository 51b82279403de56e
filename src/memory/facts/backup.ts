/** @module Fact backups: cron snapshots of each user's facts and restoring the missing facts from the newest snapshot. */
import type { TenantDeps } from "../tenant-deps.ts";
import { MemoryError, UpstreamUnavailable, errorText } from "../errors.ts";
import type { BackupStore, FactScope, FactStore, UserStore } from "../ports/facts.ts";
import type { Fact } from "../model.ts";

/** Users whose facts one cron run looks at (each costs a few store calls; Workers cap subrequests). */
export const BACKUP_USERS_PER_RUN = 20;
/** Facts per list page and per fetch while snapshotting and restoring. */
const PAGE = 1000;

export interface BackupDeps {
  facts: FactStore;
  users: UserStore;
  backups: BackupStore;
}

/** Whether the user was erased at or after `since`: work that started before an erase must not undo it. */
const erasedSince = (erasedAt: number | null, since: number): boolean => erasedAt !== null && erasedAt >= since;

async function allFacts(facts: FactStore, scope: FactScope): Promise<Fact[]> {
  const all: Fact[] = [];
  let cursor = "";
  do {
    const page = await facts.list(scope, cursor, PAGE);
    all.push(...page.facts);
    cursor = page.facts.length > 0 ? page.nextCursor : "";
  } while (cursor !== "");
  return all;
}

export type BackupOutcome = "written" | "fresh" | "empty" | "erased";

/**
 * Snapshots one user's facts unless the newest snapshot is younger than `intervalMs`. An erase
 * removes the user's snapshots itself; one that ran while this read the facts makes it remove
 * what it wrote, so no snapshot of an erased user survives.
 */
export async function backupUser(
  deps: BackupDeps,
  scope: FactScope,
  at: { takenAt: number; startedAt: number; intervalMs: number },
): Promise<BackupOutcome> {
  const newest = await deps.backups.newestAt(scope);
  if (newest !== null && at.takenAt - newest < at.intervalMs) return "fresh";
  const facts = await allFacts(deps.facts, scope);
  if (facts.length === 0) return "empty";
  await deps.backups.write(scope, { takenAt: at.takenAt, facts });
  if (erasedSince(await deps.users.erasedAt(scope), at.startedAt)) {
    await deps.backups.purge(scope);
    return "erased";
  }
  return "written";
}

export interface BackupReport {
  usersVisited: number;
  written: number;
  /** True when the run reached the last user (the next one starts over). */
  completedPass: boolean;
  errors: string[];
}

export interface BackupRunDeps extends BackupDeps {
  tenants: readonly string[];
  /** The order key (`tenant\0user`) of the last user visited; "" = from the start. */
  loadCursor(): Promise<string>;
  saveCursor(cursor: string): Promise<void>;
  takenAt: number;
  intervalMs: number;
  now(): number;
}

const orderKey = (s: FactScope): string => `${s.tenant}\u0000${s.userId}`;

/** One bounded backup run over the configured tenants' users, resuming after the last one visited. */
export async function runBackups(deps: BackupRunDeps): Promise<BackupReport> {
  const report: BackupReport = { usersVisited: 0, written: 0, completedPass: false, errors: [] };
  const tenants = new Set(deps.tenants);
  const scopes = (await deps.facts.scopes()).filter((s) => tenants.has(s.tenant)).sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : 1));
  const after = await deps.loadCursor();
  const todo = scopes.filter((s) => orderKey(s) > after).slice(0, BACKUP_USERS_PER_RUN);
  const startedAt = deps.now();
  for (const scope of todo) {
    report.usersVisited++;
    try {
      if ((await backupUser(deps, scope, { takenAt: deps.takenAt, startedAt, intervalMs: deps.intervalMs })) === "written")
        report.written++;
    } catch (err) {
      report.errors.push(`${scope.tenant}/${scope.userId}: ${errorText(err)}`);
    }
  }
  const last = todo.at(-1);
  report.completedPass = last === undefined || last === scopes.at(-1);
  await deps.saveCursor(report.completedPass || !last ? "" : orderKey(last));
  return report;
}

export interface RestoreResult {
  userId: string;
  /** When the snapshot restored from was taken, ms. */
  snapshotAt: number;
  /** Facts written back (they were missing). */
  restored: number;
  /** Facts of the snapshot that exist already (left as they are, edits included). */
  present: number;
}

/**
 * Brings back the facts of the user's newest snapshot that are missing now. Facts keep their
 * ids (content hashes), so a restore is idempotent and never duplicates a fact; facts that exist
 * are left as they are. An erased user is never restored.
 */
export async function restoreFacts(
  deps: Pick<TenantDeps, "tenant" | "facts" | "backups" | "users" | "now">,
  userId: string,
): Promise<RestoreResult> {
  const { facts, backups } = deps;
  if (!backups) throw new UpstreamUnavailable("backups", "backups are off: bind an R2 bucket as BACKUPS", { reason: "not_configured" });
  if (!facts)
    throw new UpstreamUnavailable("vector", "long-term memory is not configured (UPSTASH_VECTOR_REST_URL / _TOKEN)", {
      reason: "not_configured",
    });
  const scope: FactScope = { tenant: deps.tenant, userId };
  const startedAt = deps.now();
  const refuse = () => new MemoryError("conflict", "the user was erased; erased data is never restored");
  if ((await deps.users.erasedAt(scope)) !== null) throw refuse();
  const snapshot = await backups.latest(scope);
  if (!snapshot) throw new MemoryError("not_found", "no backup of this user");
  const missing: Fact[] = [];
  for (let i = 0; i < snapshot.facts.length; i += PAGE) {
    const chunk = snapshot.facts.slice(i, i + PAGE);
    const found = await facts.get(
      scope,
      chunk.map((f) => f.id),
    );
    chunk.forEach((f, j) => {
      if (!found[j]) missing.push(f);
    });
  }
  if (missing.length > 0) await facts.upsert(scope, missing);
  if (erasedSince(await deps.users.erasedAt(scope), startedAt)) {
    await facts.delete(
      scope,
      missing.map((f) => f.id),
    );
    throw refuse();
  }
  return { userId, snapshotAt: snapshot.takenAt, restored: missing.length, present: snapshot.facts.length - missing.length };
}
