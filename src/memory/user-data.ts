import type { MemoryDeps } from "./deps.ts";
import { MemoryError } from "./errors.ts";
import { recordAudit } from "./audit-record.ts";
import type { ErasedCounts, FactScope, SessionDump } from "./ports.ts";
import type { Fact } from "./types.ts";

/** Sessions exported per page: each carries its window, summary, archive and working memory. */
export const EXPORT_SESSIONS_PER_PAGE = 10;
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
export async function exportUser(deps: MemoryDeps, userId: string, cursorText?: string): Promise<ExportPage> {
  const page = await exportPage(deps, userId, cursorText);
  recordAudit(deps, "user.export", { userId }, { page: cursorText ?? "" });
  return page;
}

async function exportPage(deps: MemoryDeps, userId: string, cursorText: string | undefined): Promise<ExportPage> {
  const cursor = decodeCursor(cursorText);
  const scope: FactScope = { tenant: deps.tenant, userId };
  const page: ExportPage = { userId, exportedAt: deps.now(), sessions: [], facts: [], nextCursor: null };
  let factsCursor = cursor.facts;
  if (cursor.sessions !== null) {
    const dump = await deps.sessions.exportSessions(deps.tenant, userId, { offset: cursor.sessions, limit: EXPORT_SESSIONS_PER_PAGE });
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

/**
 * Erases a user everywhere: first a tombstone, so work already scheduled (learning, fact delivery)
 * can never bring anything back; then the facts (when Vector is down the request fails before any
 * session is touched); then the user's own sessions in bounded batches (another user's session
 * under a reused id is left alone). A request stops after a bounded number of store calls and
 * answers `done: false`; calling again continues where it stopped, under the same receipt id. The
 * last request records the receipt (counts, no contents) in the audit log.
 */
export async function eraseUser(deps: MemoryDeps, userId: string): Promise<EraseProgress> {
  const scope: FactScope = { tenant: deps.tenant, userId };
  const erasedAt = deps.now();
  const job = await deps.eraseJournal.begin(scope, `er_${deps.newId()}`, erasedAt);
  await deps.users.markErased(scope, erasedAt);
  const removed: ErasedCounts = { sessions: 0, messages: 0, archives: 0, notes: 0, facts: 0, backups: 0 };
  if (deps.facts) removed.facts = await deps.facts.deleteAll(scope);
  // Snapshots too: a restore must never bring an erased user back.
  if (deps.backups) removed.backups = await deps.backups.purge(scope);
  let more = true;
  for (let call = 0; call < ERASE_CALLS_PER_REQUEST && more; call++) {
    const batch = await deps.sessions.eraseUserSessions(deps.tenant, userId, ERASE_SESSIONS_PER_CALL);
    removed.sessions += batch.sessions;
    removed.messages += batch.messages;
    removed.archives += batch.archived;
    removed.notes += batch.notes;
    more = batch.more;
  }
  const totals = await deps.eraseJournal.add(scope, removed, !more);
  const deleted = Object.values(removed).reduce((sum, n) => sum + n, 0);
  if (!more) {
    recordAudit(deps, "user.erase", { userId }, { receiptId: job.receiptId, startedAt: job.startedAt, ...totals });
  }
  return { userId, receiptId: job.receiptId, done: !more, erasedAt, removed: totals, deleted };
}
