/** @module User data export (paged sessions then facts) and erasure across all stores. */
import type { TenantDeps } from "../tenant-deps.ts";
import type { AuditDeps } from "../observe/audit-record.ts";
import { MemoryError } from "../errors.ts";
import { recordAudit } from "../observe/audit-record.ts";
import type { ErasedCounts } from "../ports/operations.ts";
import type { FactScope } from "../ports/facts.ts";
import type { SessionDump } from "../ports/sessions.ts";
import type { Fact } from "../model.ts";

/** Sessions exported per page: each carries its window, summary, archive and working memory. */
export const EXPORT_SESSIONS_PER_PAGE = 10;
/**
 * Stored text one export page carries at most before it ends (after the session that crosses
 * it): with notes capped per session, a page stays a few MB at most, so any user can be exported.
 */
export const EXPORT_PAGE_BYTES = 2_000_000;
/** Facts exported per page. */
export const EXPORT_FACTS_PER_PAGE = 1000;
/** Sessions erased per store call (one round trip). */
export const ERASE_SESSIONS_PER_CALL = 100;
/** Store calls one erase request makes before it answers "in progress" (Workers cap subrequests). */
export const ERASE_CALLS_PER_REQUEST = 10;

export interface ExportPage {
  userId: string;
  exportedAt: number;
  sessions: SessionDump[];
  facts: Fact[];
  /** Pass as `cursor` for the next page; null when this was the last one. */
  nextCursor: string | null;
}

/** Where an export stands: the offset in the user's session index, then the fact store's cursor. */
interface ExportCursor {
  sessions: number | null;
  facts: string;
}

function encodeCursor(cursor: ExportCursor): string {
  return cursor.sessions !== null ? `s${cursor.sessions}` : `f${cursor.facts}`;
}

function decodeCursor(raw: string | undefined): ExportCursor {
  if (raw === undefined || raw === "") return { sessions: 0, facts: "" };
  const match = /^(?:s(\d{1,9})|f([A-Za-z0-9_-]{0,64}))$/.exec(raw);
  if (!match) throw new MemoryError("invalid", "invalid cursor: pass the nextCursor of the previous page");
  return match[1] !== undefined ? { sessions: Number(match[1]), facts: "" } : { sessions: null, facts: match[2] ?? "" };
}

/**
 * One page of everything stored about a user: first the sessions the user owns (a session id
 * another user took over after this user's session expired is not theirs), then the facts.
 * Each page costs at most one Redis and one Vector round trip, so any user can be exported.
 */
/** What exporting a user's data runs on. */
type ExportDeps = AuditDeps & Pick<TenantDeps, "sessions" | "facts">;

export async function exportUser(deps: ExportDeps, userId: string, cursorText?: string): Promise<ExportPage> {
  const page = await exportPage(deps, userId, cursorText);
  recordAudit(deps, "user.export", { userId }, { page: cursorText ?? "" });
  return page;
}

async function exportPage(deps: ExportDeps, userId: string, cursorText: string | undefined): Promise<ExportPage> {
  const cursor = decodeCursor(cursorText);
  const scope: FactScope = { tenant: deps.tenant, userId };
  const page: ExportPage = { userId, exportedAt: deps.now(), sessions: [], facts: [], nextCursor: null };
  let factsCursor = cursor.facts;
  if (cursor.sessions !== null) {
    const dump = await deps.sessions.exportSessions(deps.tenant, userId, {
      offset: cursor.sessions,
      limit: EXPORT_SESSIONS_PER_PAGE,
      maxBytes: EXPORT_PAGE_BYTES,
    });
    page.sessions = dump.sessions;
    if (dump.next !== null) {
      page.nextCursor = encodeCursor({ sessions: dump.next, facts: "" });
      return page;
    }
    factsCursor = "";
  }
  if (deps.facts) {
    const facts = await deps.facts.list(scope, factsCursor, EXPORT_FACTS_PER_PAGE);
    page.facts = facts.facts;
    if (facts.nextCursor !== "" && facts.facts.length > 0) page.nextCursor = encodeCursor({ sessions: null, facts: facts.nextCursor });
  }
  return page;
}

export interface EraseProgress {
  userId: string;
  /** Names this erase from its first request to its last; the audit log keeps it. */
  receiptId: string;
  /** True when nothing of the user is left; otherwise call again to continue. */
  done: boolean;
  erasedAt: number;
  /** Everything this erase removed so far (all its requests). */
  removed: ErasedCounts;
  /** What this request removed. */
  deleted: number;
}

/** Traces erased per store call (one round trip). */
export const ERASE_TRACES_PER_CALL = 500;

/** How many facts the user has now (id-only pages, bounded by one user's facts). */
async function countFacts(facts: NonNullable<TenantDeps["facts"]>, scope: FactScope): Promise<number> {
  let count = 0;
  let cursor = "";
  do {
    const page = await facts.list(scope, cursor, EXPORT_FACTS_PER_PAGE);
    count += page.facts.length;
    cursor = page.facts.length > 0 ? page.nextCursor : "";
  } while (cursor !== "");
  return count;
}

/**
 * Erases a user everywhere: first a tombstone, so work already scheduled (learning, fact delivery,
 * a chat reply, a trace) can never bring anything back; then the facts (when Vector is down the
 * request fails before any session is touched) and backups; then the user's own sessions and
 * traces in bounded batches (another user's session under a reused id is left alone). A request
 * stops after a bounded number of store calls and answers `done: false`; calling again continues
 * where it stopped, under the same receipt id.
 *
 * The receipt's totals come from the erase job's durable progress: the Redis steps count what
 * they delete in the same atomic step, the facts and backups are counted around their delete (see
 * `EraseJournal`). So a fault midway, a retry, a lost answer or parallel erases all end with the
 * true totals, and exactly one request records the receipt (counts, no contents) in the audit log.
 */
export async function eraseUser(
  deps: AuditDeps & Pick<TenantDeps, "sessions" | "users" | "facts" | "backups" | "traces" | "eraseJournal">,
  userId: string,
): Promise<EraseProgress> {
  const scope: FactScope = { tenant: deps.tenant, userId };
  const erasedAt = deps.now();
  const journal = deps.eraseJournal;
  const job = await journal.begin(scope, `er_${deps.newId()}`, erasedAt);
  await deps.users.markErased(scope, erasedAt);
  let deleted = 0;
  const facts = deps.facts;
  if (facts) {
    await journal.plan(scope, "facts", await countFacts(facts, scope));
    deleted += await facts.deleteAll(scope);
    await journal.settle(scope, "facts");
  }
  // Snapshots too: a restore must never bring an erased user back.
  const backups = deps.backups;
  if (backups) {
    await journal.plan(scope, "backups", await backups.count(scope));
    deleted += await backups.purge(scope);
    await journal.settle(scope, "backups");
  }
  let more = true;
  let calls = 0;
  for (; calls < ERASE_CALLS_PER_REQUEST && more; calls++) {
    const batch = await deps.sessions.eraseUserSessions(deps.tenant, userId, ERASE_SESSIONS_PER_CALL);
    deleted += batch.sessions + batch.messages + batch.archived + batch.notes;
    more = batch.more;
  }
  // Traces hold the user's queries and recalled fact texts (kept whether or not tracing is on now).
  const traces = deps.traces;
  if (traces && !more) {
    more = true;
    for (; calls < ERASE_CALLS_PER_REQUEST && more; calls++) {
      const batch = await traces.eraseUser(deps.tenant, userId, ERASE_TRACES_PER_CALL);
      deleted += batch.removed;
      more = batch.more;
    }
  }
  const outcome = await journal.finish(scope, more, deps.now());
  const receiptId = outcome.receiptId || job.receiptId;
  if (outcome.state === "closed") {
    recordAudit(deps, "user.erase", { userId }, { receiptId, startedAt: outcome.startedAt, ...outcome.removed });
  }
  return { userId, receiptId, done: outcome.state !== "running", erasedAt, removed: outcome.removed, deleted };
}
