/**
 * In-memory fake of the working-memory port (src/memory/ports/sessions.ts), following the Redis
 * adapter (src/stores/working-memory-store.ts): caps checked before a note is set (a replaced
 * note counts its new size only, bytes as UTF-8), a scratchpad trimmed to its newest entries,
 * clears that return how much they removed. TTLs are recorded, not enforced.
 */
import type { SessionRef } from "../../../src/memory/model.ts";
import type { NoteCaps, NoteRefusal, WorkingMemoryStore } from "../../../src/memory/ports/sessions.ts";
import { keyOf } from "./shared.ts";

const bytes = (text: string): number => new TextEncoder().encode(text).length;

export class InMemoryWorkingMemoryStore implements WorkingMemoryStore {
  readonly calls: Record<string, number> = {};
  /** The TTL last set per session key (notes and scratchpad), for tests to check. */
  readonly ttls = new Map<string, { notes?: number; scratch?: number }>();
  readonly #notes = new Map<string, Map<string, string>>();
  readonly #pads = new Map<string, string[]>();

  #enter(method: keyof WorkingMemoryStore): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
  }

  #notesOf(ref: SessionRef): Map<string, string> {
    let notes = this.#notes.get(keyOf(ref));
    if (!notes) this.#notes.set(keyOf(ref), (notes = new Map()));
    return notes;
  }

  async setNote(ref: SessionRef, key: string, value: string, ttlSeconds: number, caps?: NoteCaps): Promise<NoteRefusal | null> {
    this.#enter("setNote");
    const notes = this.#notesOf(ref);
    if (caps && !notes.has(key) && notes.size >= caps.maxNotes) return "too_many";
    if (caps) {
      let total = bytes(key) + bytes(value);
      for (const [k, v] of notes) if (k !== key) total += bytes(k) + bytes(v);
      if (total > caps.maxBytes) return "too_large";
    }
    notes.set(key, value);
    this.ttls.set(keyOf(ref), { ...this.ttls.get(keyOf(ref)), notes: ttlSeconds });
    return null;
  }

  async getNotes(ref: SessionRef): Promise<Record<string, string>> {
    this.#enter("getNotes");
    return Object.fromEntries(this.#notesOf(ref));
  }

  /** The cursor is an offset into the notes in insertion order ("" or "0" starts). */
  async getNotesPage(
    ref: SessionRef,
    cursor: string,
    limit: number,
  ): Promise<{ notes: Record<string, string>; nextCursor: string | null }> {
    this.#enter("getNotesPage");
    const all = [...this.#notesOf(ref)];
    const start = cursor === "" ? 0 : Number(cursor);
    const end = start + limit;
    return { notes: Object.fromEntries(all.slice(start, end)), nextCursor: end < all.length ? String(end) : null };
  }

  async getNote(ref: SessionRef, key: string): Promise<string | null> {
    this.#enter("getNote");
    return this.#notesOf(ref).get(key) ?? null;
  }

  async deleteNote(ref: SessionRef, key: string): Promise<boolean> {
    this.#enter("deleteNote");
    return this.#notesOf(ref).delete(key);
  }

  async clearNotes(ref: SessionRef): Promise<number> {
    this.#enter("clearNotes");
    const n = this.#notesOf(ref).size;
    this.#notes.delete(keyOf(ref));
    return n;
  }

  async appendScratch(ref: SessionRef, entry: string, ttlSeconds: number, maxEntries: number): Promise<number> {
    this.#enter("appendScratch");
    const pad = [...(this.#pads.get(keyOf(ref)) ?? []), entry].slice(-maxEntries);
    this.#pads.set(keyOf(ref), pad);
    this.ttls.set(keyOf(ref), { ...this.ttls.get(keyOf(ref)), scratch: ttlSeconds });
    return pad.length;
  }

  async getScratch(ref: SessionRef): Promise<string[]> {
    this.#enter("getScratch");
    return [...(this.#pads.get(keyOf(ref)) ?? [])];
  }

  async clearScratch(ref: SessionRef): Promise<number> {
    this.#enter("clearScratch");
    const n = this.#pads.get(keyOf(ref))?.length ?? 0;
    this.#pads.delete(keyOf(ref));
    return n;
  }
}
