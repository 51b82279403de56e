/**
 * The per-user and per-tenant methods of the in-memory session store (see ./sessions.ts), as
 * functions of its tables: listing, export, erase and the index sweep.
 */
import type { IndexSweep, SessionDump, SessionIdPage, UserSessionsErased } from "../../../src/memory/ports/sessions.ts";
import type { InMemoryEraseJournal } from "./operations.ts";
import type { SessionTables } from "./session-tables.ts";
import { clone, keyOf, newestFirst, userKey } from "./shared.ts";

type Page = { offset: number; limit: number };

const members = (t: SessionTables, tenant: string, userId: string, page: Page) =>
  newestFirst(t.map(t.userIndex, userKey(tenant, userId))).slice(page.offset, page.offset + page.limit);

export function userSessions(t: SessionTables, tenant: string, userId: string, page: Page): SessionIdPage {
  const ids = members(t, tenant, userId, page);
  const sessions = ids.flatMap((sessionId) => {
    const state = t.owned(tenant, userId, sessionId);
    if (!state?.meta) return [];
    const messages = (state.summary?.covered ?? 0) + state.window.length;
    return [{ sessionId, createdAt: state.meta.createdAt, updatedAt: state.meta.updatedAt, messages, title: state.title }];
  });
  return { ids: sessions.map((e) => e.sessionId), sessions, next: ids.length < page.limit ? null : page.offset + ids.length };
}

export function exportSessions(
  t: SessionTables,
  tenant: string,
  userId: string,
  page: Page,
): { sessions: SessionDump[]; next: number | null } {
  const ids = members(t, tenant, userId, page);
  const sessions = ids.flatMap((sessionId): SessionDump[] => {
    const state = t.owned(tenant, userId, sessionId);
    if (!state) return [];
    return [
      {
        sessionId,
        snapshot: t.snapshot(state),
        archived: clone(state.archive),
        notes: {},
        scratchpad: [],
        turns: clone([...state.turns.values()]),
      },
    ];
  });
  return { sessions, next: ids.length < page.limit ? null : page.offset + ids.length };
}

export function eraseUserSessions(
  t: SessionTables,
  journal: InMemoryEraseJournal | null,
  tenant: string,
  userId: string,
  limit: number,
): UserSessionsErased {
  const index = t.map(t.userIndex, userKey(tenant, userId));
  const oldest = [...index.entries()]
    .sort((a, b) => a[1] - b[1])
    .slice(0, limit)
    .map(([id]) => id);
  const out: UserSessionsErased = { sessions: 0, messages: 0, archived: 0, notes: 0, skipped: 0, more: false };
  for (const sessionId of oldest) {
    const state = t.owned(tenant, userId, sessionId);
    if (state) {
      out.sessions += 1;
      out.messages += state.system.length + state.window.length;
      out.archived += state.archive.length;
      out.notes += state.notes;
      t.sessions.delete(keyOf({ tenant, sessionId }));
      t.map(t.tenantIndex, tenant).delete(sessionId);
      if (t.map(t.owners, tenant).get(sessionId) === userId) t.map(t.owners, tenant).delete(sessionId);
    } else {
      out.skipped += 1;
    }
    index.delete(sessionId);
  }
  out.more = index.size > 0;
  journal?.count({ tenant, userId }, { sessions: out.sessions, messages: out.messages, archives: out.archived, notes: out.notes });
  return out;
}

export function sweepIndexes(t: SessionTables, tenant: string): IndexSweep {
  const removed: string[] = [];
  for (const sessionId of [...t.map(t.tenantIndex, tenant).keys()]) {
    if (t.state({ tenant, sessionId }, false)?.meta) continue;
    t.map(t.tenantIndex, tenant).delete(sessionId);
    const owner = t.map(t.owners, tenant).get(sessionId);
    if (owner !== undefined) {
      t.map(t.userIndex, userKey(tenant, owner)).delete(sessionId);
      t.map(t.owners, tenant).delete(sessionId);
    }
    removed.push(sessionId);
  }
  return { nextCursor: "", removed };
}
