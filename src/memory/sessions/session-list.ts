/** @module A user's session list: session titles from the first user message and cursor-paged listing. */
import type { TenantDeps } from "../tenant-deps.ts";
import { MemoryError } from "../errors.ts";
import type { SessionListEntry } from "../ports/sessions.ts";
import type { IncomingMessage } from "../model.ts";

/** A session title is the first user message, clipped to this many characters. */
export const TITLE_CHARS = 80;

/** Sessions per page of a user's session list, unless the client asks for fewer or more. */
export const DEFAULT_SESSIONS_PER_PAGE = 20;
export const MAX_SESSIONS_PER_PAGE = 100;

/**
 * The title a batch would give a session that has none yet: its first user message on one line,
 * clipped on a character boundary (never inside a surrogate pair) with an ellipsis.
 */
export function sessionTitle(messages: readonly IncomingMessage[]): string | undefined {
  const first = messages.find((m) => m.role === "user" && m.content.trim() !== "");
  if (!first) return undefined;
  const line = first.content.replace(/\s+/gu, " ").trim();
  const chars = [...line];
  return chars.length <= TITLE_CHARS ? line : `${chars.slice(0, TITLE_CHARS - 1).join("")}…`;
}

export interface SessionListPage {
  userId: string;
  sessions: SessionListEntry[];
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: string | null;
}

/** The cursor is the offset in the user's session index, as digits. */
function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === "") return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw new MemoryError("invalid", "invalid cursor: pass the nextCursor of the previous page");
  return Number(cursor);
}

/**
 * One page of the sessions a user owns, newest activity first, in one Redis round trip. A page may
 * hold fewer than `limit` entries (index entries of expired or taken-over sessions are skipped);
 * follow `nextCursor` until it is null.
 */
export async function listUserSessions(
  deps: Pick<TenantDeps, "tenant" | "sessions">,
  userId: string,
  page: { cursor?: string | undefined; limit?: number | undefined },
): Promise<SessionListPage> {
  const offset = decodeCursor(page.cursor);
  const limit = page.limit ?? DEFAULT_SESSIONS_PER_PAGE;
  const result = await deps.sessions.userSessions(deps.tenant, userId, { offset, limit });
  return { userId, sessions: result.sessions, nextCursor: result.next === null ? null : String(result.next) };
}
