import { describe, expect, it } from "vitest";
import type { SessionRef } from "../../../../src/memory/model.ts";
import { FieldCipher, isSealed } from "../../../../src/stores/sealed/cipher.ts";
import { SealedWorkingMemoryStore } from "../../../../src/stores/sealed/sealed-working-store.ts";
import { InMemoryWorkingMemoryStore } from "../../../support/fakes/working-memory.ts";

const ref: SessionRef = { tenant: "acme", sessionId: "s1" };
const cipher = new FieldCipher([{ kid: "k1", secret: new Uint8Array(32).fill(3) }]);

function stores() {
  const inner = new InMemoryWorkingMemoryStore();
  return { inner, sealed: new SealedWorkingMemoryStore(inner, cipher) };
}

describe("the sealed working memory", () => {
  it("stores note values sealed, keys in clear, and reads them back opened", async () => {
    const { inner, sealed } = stores();
    expect(await sealed.setNote(ref, "goal", "ship it", 60)).toBeNull();
    await sealed.setNote(ref, "city", "Oslo", 60);
    const stored = await inner.getNotes(ref);
    expect(Object.keys(stored).sort()).toEqual(["city", "goal"]);
    expect(Object.values(stored).every(isSealed)).toBe(true);
    expect(await sealed.getNotes(ref)).toEqual({ goal: "ship it", city: "Oslo" });
    expect(await sealed.getNote(ref, "goal")).toBe("ship it");
    expect(await sealed.getNote(ref, "missing")).toBeNull();
  });

  it("opens every note of a page and keeps its cursor", async () => {
    const { sealed } = stores();
    for (const key of ["a", "b", "c"]) await sealed.setNote(ref, key, `value ${key}`, 60);
    const first = await sealed.getNotesPage(ref, "0", 2);
    const rest = first.nextCursor === null ? { notes: {} } : await sealed.getNotesPage(ref, first.nextCursor, 2);
    expect({ ...first.notes, ...rest.notes }).toEqual({ a: "value a", b: "value b", c: "value c" });
  });

  it("stores scratchpad entries sealed, in order, trimmed by the inner store", async () => {
    const { inner, sealed } = stores();
    for (const entry of ["one", "two", "three"]) await sealed.appendScratch(ref, entry, 60, 2);
    expect((await inner.getScratch(ref)).every(isSealed)).toBe(true);
    expect(await sealed.getScratch(ref)).toEqual(["two", "three"]);
  });

  it("deletes and clears through the inner store", async () => {
    const { inner, sealed } = stores();
    await sealed.setNote(ref, "a", "1", 60);
    await sealed.setNote(ref, "b", "2", 60);
    await sealed.appendScratch(ref, "x", 60, 5);
    expect(await sealed.deleteNote(ref, "a")).toBe(true);
    expect(await sealed.clearNotes(ref)).toBe(1);
    expect(await sealed.clearScratch(ref)).toBe(1);
    expect(await inner.getNotes(ref)).toEqual({});
  });

  it("reads values stored in clear before sealing was turned on", async () => {
    const { inner, sealed } = stores();
    await inner.setNote(ref, "old", "plain value", 60);
    expect(await sealed.getNote(ref, "old")).toBe("plain value");
  });
});
