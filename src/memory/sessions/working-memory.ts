/** @module A session's working memory: key/value notes and an append-only scratchpad with their own limits and TTL. */
import type { TenantDeps } from "../tenant-deps.ts";
import { MemoryError } from "../errors.ts";
import type { SessionRef } from "../model.ts";

/** Working memory is small by design: a note or a scratchpad entry holds at most 8 KB. */
export const MAX_WORKING_VALUE_CHARS = 8192;
/** Scratchpad entries kept; older ones are dropped first. */
export const MAX_SCRATCH_ENTRIES = 200;
/** Notes one session holds at most; a new note past it is refused (409) until some are deleted. */
export const MAX_NOTES_PER_SESSION = 100;
/**
 * Bytes one session's notes hold at most, keys and values as stored (sealed values are larger than
 * their text): a full read of the notes, and a session in an export page, stays bounded.
 */
export const MAX_NOTES_BYTES_PER_SESSION = 1_048_576;
/** Notes one page of `GET .../notes` returns at most. */
export const NOTES_PAGE_LIMIT = 100;

/**
 * A session's working memory: notes (key/value) and a scratchpad (append-only list) with their
 * own idle TTL, cleared independently of the conversation.
 */
export class WorkingMemory {
  readonly #d: Pick<TenantDeps, "working" | "workingTtlSeconds">;
  readonly #ref: SessionRef;

  constructor(deps: Pick<TenantDeps, "tenant" | "working" | "workingTtlSeconds">, sessionId: string) {
    this.#d = deps;
    this.#ref = { tenant: deps.tenant, sessionId };
  }

  notes(): Promise<Record<string, string>> {
    return this.#d.working.getNotes(this.#ref);
  }

  async note(key: string): Promise<string> {
    const value = await this.#d.working.getNote(this.#ref, key);
    if (value === null) throw new MemoryError("not_found", `no note "${key}"`);
    return value;
  }

  /** One page of the notes; pass `nextCursor` back for the next. */
  notesPage(page: {
    cursor?: string | undefined;
    limit?: number | undefined;
  }): Promise<{ notes: Record<string, string>; nextCursor: string | null }> {
    const limit = Math.min(page.limit ?? NOTES_PAGE_LIMIT, NOTES_PAGE_LIMIT);
    if (page.cursor !== undefined && !/^\d{1,20}$/.test(page.cursor))
      throw new MemoryError("invalid", "invalid cursor: pass the nextCursor of the previous page");
    return this.#d.working.getNotesPage(this.#ref, page.cursor ?? "", limit);
  }

  async setNote(key: string, value: string): Promise<void> {
    checkValue(value);
    const refused = await this.#d.working.setNote(this.#ref, key, value, this.#d.workingTtlSeconds, {
      maxNotes: MAX_NOTES_PER_SESSION,
      maxBytes: MAX_NOTES_BYTES_PER_SESSION,
    });
    if (refused === "too_many")
      throw new MemoryError("conflict", `a session holds at most ${MAX_NOTES_PER_SESSION} notes; delete some first`);
    if (refused === "too_large")
      throw new MemoryError("conflict", `a session's notes hold at most ${MAX_NOTES_BYTES_PER_SESSION} bytes; delete some first`);
  }

  /** Deletes one note; `not_found` when there was none. */
  async deleteNote(key: string): Promise<void> {
    if (!(await this.#d.working.deleteNote(this.#ref, key))) throw new MemoryError("not_found", `no note "${key}"`);
  }

  clearNotes(): Promise<number> {
    return this.#d.working.clearNotes(this.#ref);
  }

  /** Appends an entry; returns the scratchpad's length (capped at {@link MAX_SCRATCH_ENTRIES}). */
  appendScratch(entry: string): Promise<number> {
    checkValue(entry);
    return this.#d.working.appendScratch(this.#ref, entry, this.#d.workingTtlSeconds, MAX_SCRATCH_ENTRIES);
  }

  scratchpad(): Promise<string[]> {
    return this.#d.working.getScratch(this.#ref);
  }

  clearScratch(): Promise<number> {
    return this.#d.working.clearScratch(this.#ref);
  }
}

function checkValue(value: string): void {
  if (value.length === 0 || value.length > MAX_WORKING_VALUE_CHARS) {
    throw new MemoryError("invalid", `a working-memory value must be 1 to ${MAX_WORKING_VALUE_CHARS} characters`);
  }
}
