/** @module SealedWorkingMemoryStore: a working memory decorator that seals note values and scratchpad entries at rest. */
import type { NoteCaps, NoteRefusal, WorkingMemoryStore } from "../../memory/ports/index.ts";
import type { SessionRef } from "../../memory/model.ts";
import type { FieldCipher } from "./cipher.ts";
import * as seal from "./fields.ts";

/** A {@link WorkingMemoryStore} that seals note values and scratchpad entries (note keys stay clear). */
export class SealedWorkingMemoryStore implements WorkingMemoryStore {
  readonly #inner: WorkingMemoryStore;
  readonly #cipher: FieldCipher;

  constructor(inner: WorkingMemoryStore, cipher: FieldCipher) {
    this.#inner = inner;
    this.#cipher = cipher;
  }

  async setNote(ref: SessionRef, key: string, value: string, ttlSeconds: number, caps?: NoteCaps): Promise<NoteRefusal | null> {
    return this.#inner.setNote(ref, key, await this.#cipher.seal(value, ref.tenant), ttlSeconds, caps);
  }

  async getNotesPage(
    ref: SessionRef,
    cursor: string,
    limit: number,
  ): Promise<{ notes: Record<string, string>; nextCursor: string | null }> {
    const page = await this.#inner.getNotesPage(ref, cursor, limit);
    return { notes: await seal.record(page.notes, seal.codecsFor(this.#cipher, ref.tenant).open), nextCursor: page.nextCursor };
  }

  async getNotes(ref: SessionRef): Promise<Record<string, string>> {
    return seal.record(await this.#inner.getNotes(ref), seal.codecsFor(this.#cipher, ref.tenant).open);
  }

  async getNote(ref: SessionRef, key: string): Promise<string | null> {
    const value = await this.#inner.getNote(ref, key);
    return value === null ? null : this.#cipher.open(value, ref.tenant);
  }

  deleteNote(ref: SessionRef, key: string): Promise<boolean> {
    return this.#inner.deleteNote(ref, key);
  }

  clearNotes(ref: SessionRef): Promise<number> {
    return this.#inner.clearNotes(ref);
  }

  async appendScratch(ref: SessionRef, entry: string, ttlSeconds: number, maxEntries: number): Promise<number> {
    return this.#inner.appendScratch(ref, await this.#cipher.seal(entry, ref.tenant), ttlSeconds, maxEntries);
  }

  async getScratch(ref: SessionRef): Promise<string[]> {
    return seal.strings(await this.#inner.getScratch(ref), seal.codecsFor(this.#cipher, ref.tenant).open);
  }

  clearScratch(ref: SessionRef): Promise<number> {
    return this.#inner.clearScratch(ref);
  }
}
