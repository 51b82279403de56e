import { shouldRetain } from "./lifecycle.ts";
import type { MemoryOptions } from "./options.ts";
import type { FactScope, FactStore } from "./ports.ts";

/** Where the last sweep stopped, kept between cron runs. */
export interface CleanupCursor {
  /** Namespace order key (`tenant\0user`) of the scope being swept; "" = from the start. */
  scope: string;
  /** Range cursor inside that scope. */
  factCursor: string;
  /** Session-index cursor per tenant. */
  sessions: Record<string, string>;
}

export interface CleanupDeps {
  facts: FactStore | null;
  tenants: readonly string[];
  /** One page of the tenant's session-index sweep. */
  sweepSessions(tenant: string, cursor: string): Promise<{ nextCursor: string; removed: string[] }>;
  loadCursor(): Promise<CleanupCursor | null>;
  saveCursor(cursor: CleanupCursor): Promise<void>;
  options: Pick<MemoryOptions, "factPolicies" | "decayFloor">;
  /** Facts examined per run before it stops; the next run continues from the saved cursor. */
  batch: number;
  now: number;
}

export interface CleanupReport {
  factsExamined: number;
  factsDeleted: number;
  scopesVisited: number;
  sessionEntriesRemoved: number;
  /** True when the fact sweep reached the end of the last scope (the next run starts over). */
  completedPass: boolean;
  /** Parts that failed this run (e.g. Vector down); the others still ran and the cursor was saved. */
  errors: string[];
}

const orderKey = (s: FactScope): string => `${s.tenant}\u0000${s.userId}`;

/**
 * One bounded cleanup run: drops facts past their TTL or decayed below the floor (seed 002's
 * lifecycle) and index entries of expired sessions, then saves where it stopped.
 */
export async function runCleanup(deps: CleanupDeps): Promise<CleanupReport> {
  const cursor: CleanupCursor = (await deps.loadCursor()) ?? { scope: "", factCursor: "", sessions: {} };
  const report: CleanupReport = { factsExamined: 0, factsDeleted: 0, scopesVisited: 0, sessionEntriesRemoved: 0, completedPass: false, errors: [] };
  const attempt = async (part: string, work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (err) {
      report.errors.push(`${part}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  for (const tenant of deps.tenants) {
    await attempt(`sessions of ${tenant}`, async () => {
      const page = await deps.sweepSessions(tenant, cursor.sessions[tenant] ?? "");
      cursor.sessions[tenant] = page.nextCursor;
      report.sessionEntriesRemoved += page.removed.length;
    });
  }

  const facts = deps.facts;
  if (facts) await attempt("facts", () => sweepFacts(facts, cursor, report, deps));
  await deps.saveCursor(cursor);
  return report;
}

/** Sweeps facts scope by scope until the batch is used up; `cursor` records where it stopped. */
async function sweepFacts(facts: FactStore, cursor: CleanupCursor, report: CleanupReport, deps: CleanupDeps): Promise<void> {
  const scopes = (await facts.scopes()).sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0));
  let index = scopes.findIndex((s) => orderKey(s) >= cursor.scope);
  if (index < 0) index = scopes.length;
  // The scope we stopped in is gone (erased): its range cursor means nothing elsewhere.
  const resumeAt = scopes[index];
  if (!resumeAt || orderKey(resumeAt) !== cursor.scope) cursor.factCursor = "";
  while (index < scopes.length && report.factsExamined < deps.batch) {
    const scope = scopes[index]!;
    cursor.scope = orderKey(scope);
    report.scopesVisited += 1;
    const limit = Math.max(1, Math.min(1000, deps.batch - report.factsExamined));
    const page = await facts.list(scope, cursor.factCursor, limit);
    report.factsExamined += page.facts.length;
    const drop = page.facts.filter((f) => !shouldRetain(f, deps.now, deps.options)).map((f) => f.id);
    if (drop.length > 0) report.factsDeleted += await facts.delete(scope, drop);
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
