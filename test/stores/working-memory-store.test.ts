import { describe, expect, it } from "vitest";
import { sessionKeys } from "../../src/stores/keys.ts";
import { BACKENDS, sessionStoresOn } from "./session-store/fixture.ts";

// The working-memory store shares its Redis, tenant and session keys with the session store, so it
// runs on the session store's fixture.
describe.each(BACKENDS)("working-memory store on upstash-local (%s)", (_name, redisUrl) => {
  const s = sessionStoresOn(redisUrl);
  const { nextRef } = s;

  it("notes: set, get, delete, clear, with their own TTL", async () => {
    const ref = nextRef();
    await s.working.setNote(ref, "goal", "ship it", 50);
    await s.working.setNote(ref, "count", "42", 50);
    await s.working.setNote(ref, "list", "[1, 2]", 50);
    expect(await s.working.getNotes(ref)).toEqual({ goal: "ship it", count: "42", list: "[1, 2]" });
    expect(await s.working.getNote(ref, "count")).toBe("42");
    expect(await s.working.getNote(ref, "missing")).toBeNull();
    const ttl = await s.redis.ttl(sessionKeys(ref).notes);
    expect(ttl).toBeGreaterThan(40);
    expect(ttl).toBeLessThanOrEqual(50);
    expect(await s.working.deleteNote(ref, "goal")).toBe(true);
    expect(await s.working.deleteNote(ref, "goal")).toBe(false);
    expect(await s.working.clearNotes(ref)).toBe(2);
    expect(await s.working.getNotes(ref)).toEqual({});
  });

  it("scratchpad: append-only, capped to the newest entries, with its own TTL", async () => {
    const ref = nextRef();
    for (let i = 1; i <= 5; i++) expect(await s.working.appendScratch(ref, String(i), 70, 3)).toBe(Math.min(i, 3));
    expect(await s.working.getScratch(ref)).toEqual(["3", "4", "5"]);
    expect(await s.redis.ttl(sessionKeys(ref).pad)).toBeGreaterThan(60);
    expect(await s.working.clearScratch(ref)).toBe(3);
    expect(await s.working.getScratch(ref)).toEqual([]);
  });
});
