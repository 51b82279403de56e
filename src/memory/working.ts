import type { MemoryDeps } from "./deps.ts";
import { MemoryError } from "./errors.ts";
import type { SessionRef } from "./types.ts";

/** Working memory is small by design: a note or a scratchpad entry holds at most 8 KB. */
export const MAX_WORKING_VALUE_CHARS = 8192;
/** Scratchpad entries kept; older ones are dropped first. */
export const MAX_SCRATCH_ENTRIES = 200;

/**
 * A session's working memory: notes (key/value) and a scratchpad (append-only list) with their
 * own idle TTL, cleared independently of the conversation.
 */
export class WorkingMemory {
  readonly #d: MemoryDeps;
  readonly #ref: SessionRef;

  constructor(deps: MemoryDeps, sessionId: string) {
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

  async setNote(key: string, value: string): Promise<void> {
    checkValue(value);
    await this.#d.working.setNote(this.#ref, key, value, this.#d.workingTtlSeconds);
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
