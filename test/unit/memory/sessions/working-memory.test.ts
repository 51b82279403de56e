import { beforeEach, describe, expect, it } from "vitest";
import { MemoryError } from "../../../../src/memory/errors.ts";
import {
  MAX_NOTES_BYTES_PER_SESSION,
  MAX_NOTES_PER_SESSION,
  MAX_SCRATCH_ENTRIES,
  MAX_WORKING_VALUE_CHARS,
  NOTES_PAGE_LIMIT,
  WorkingMemory,
} from "../../../../src/memory/sessions/working-memory.ts";
import { InMemoryWorkingMemoryStore } from "../../../support/fakes/working-memory.ts";
import { testDeps } from "../../../support/memory-deps.ts";

const counter = { count: (text: string) => text.length };
let store: InMemoryWorkingMemoryStore;
let memory: WorkingMemory;

beforeEach(() => {
  store = new InMemoryWorkingMemoryStore();
  memory = new WorkingMemory(testDeps({ counter, working: store, workingTtlSeconds: 900 }), "s1");
});

describe("WorkingMemory notes", () => {
  it("sets, reads and lists notes of its own session with the working TTL", async () => {
    await memory.setNote("plan", "book flights");
    await memory.setNote("plan", "book trains");
    await memory.setNote("city", "Lyon");

    expect(await memory.note("plan")).toBe("book trains");
    expect(await memory.notes()).toEqual({ plan: "book trains", city: "Lyon" });
    expect(store.ttls.get("acme\u0000s1")).toEqual({ notes: 900 });
    const other = new WorkingMemory(testDeps({ counter, working: store }), "s2");
    expect(await other.notes()).toEqual({});
  });

  it("is not_found for a missing note, on read and on delete", async () => {
    await expect(memory.note("nope")).rejects.toMatchObject({ kind: "not_found" });
    await expect(memory.deleteNote("nope")).rejects.toMatchObject({ kind: "not_found" });
    await memory.setNote("k", "v");
    await memory.deleteNote("k");
    await expect(memory.note("k")).rejects.toBeInstanceOf(MemoryError);
  });

  it("refuses empty and oversized values before the store", async () => {
    await expect(memory.setNote("k", "")).rejects.toMatchObject({ kind: "invalid" });
    await expect(memory.setNote("k", "x".repeat(MAX_WORKING_VALUE_CHARS + 1))).rejects.toMatchObject({ kind: "invalid" });
    await memory.setNote("k", "x".repeat(MAX_WORKING_VALUE_CHARS));
    expect(store.calls.setNote).toBe(1);
  });

  it("turns the store's cap refusals into conflicts", async () => {
    for (let i = 0; i < MAX_NOTES_PER_SESSION; i++) await memory.setNote(`k${i}`, "v");
    await expect(memory.setNote("one-more", "v")).rejects.toMatchObject({ kind: "conflict", message: expect.stringContaining("notes") });
    // Replacing an existing note is no new note.
    await memory.setNote("k0", "w");

    await memory.clearNotes();
    // Three UTF-8 bytes a character: the byte cap is reached well before the note count.
    const big = "€".repeat(MAX_WORKING_VALUE_CHARS);
    const fit = Math.floor(MAX_NOTES_BYTES_PER_SESSION / (3 * big.length + 4));
    for (let i = 0; i < fit; i++) await memory.setNote(`n${String(i).padStart(3, "0")}`, big);
    await expect(memory.setNote("last", big)).rejects.toMatchObject({ kind: "conflict", message: expect.stringContaining("bytes") });
  });

  it("pages notes with the store's cursor, capping the limit and refusing a malformed cursor", async () => {
    for (let i = 0; i < 5; i++) await memory.setNote(`k${i}`, `v${i}`);

    const first = await memory.notesPage({ limit: 3 });
    expect(Object.keys(first.notes)).toHaveLength(3);
    expect(first.nextCursor).not.toBeNull();
    const second = await memory.notesPage({ cursor: first.nextCursor ?? "", limit: 3 });
    expect({ ...first.notes, ...second.notes }).toEqual(await memory.notes());
    expect(second.nextCursor).toBeNull();

    const spy = new InMemoryWorkingMemoryStore();
    let asked = 0;
    spy.getNotesPage = async (_ref, _cursor, limit) => {
      asked = limit;
      return { notes: {}, nextCursor: null };
    };
    await new WorkingMemory(testDeps({ counter, working: spy }), "s1").notesPage({ limit: NOTES_PAGE_LIMIT * 10 });
    expect(asked).toBe(NOTES_PAGE_LIMIT);

    expect(() => memory.notesPage({ cursor: "abc" })).toThrow(MemoryError);
  });

  it("clearNotes removes every note and says how many", async () => {
    await memory.setNote("a", "1");
    await memory.setNote("b", "2");
    expect(await memory.clearNotes()).toBe(2);
    expect(await memory.notes()).toEqual({});
  });
});

describe("WorkingMemory scratchpad", () => {
  it("appends in order, returns the length, and clears", async () => {
    expect(await memory.appendScratch("first")).toBe(1);
    expect(await memory.appendScratch("second")).toBe(2);
    expect(await memory.scratchpad()).toEqual(["first", "second"]);
    expect(store.ttls.get("acme\u0000s1")).toEqual({ scratch: 900 });
    expect(await memory.clearScratch()).toBe(2);
    expect(await memory.scratchpad()).toEqual([]);
  });

  it("keeps the newest entries only", async () => {
    for (let i = 0; i < MAX_SCRATCH_ENTRIES + 2; i++) await memory.appendScratch(`e${i}`);
    const pad = await memory.scratchpad();
    expect(pad).toHaveLength(MAX_SCRATCH_ENTRIES);
    expect(pad[0]).toBe("e2");
  });

  it("refuses empty and oversized entries", async () => {
    // Checked before any store call, so it throws rather than rejects.
    expect(() => memory.appendScratch("")).toThrow(MemoryError);
    expect(() => memory.appendScratch("x".repeat(MAX_WORKING_VALUE_CHARS + 1))).toThrow(/1 to 8192 characters/);
    expect(store.calls.appendScratch).toBeUndefined();
  });
});
