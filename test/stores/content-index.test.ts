import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFact } from "../../src/memory/facts/identity.ts";
import type { FactScope } from "../../src/memory/ports/facts.ts";
import type { Fact } from "../../src/memory/model.ts";
import { RedisContentIndex } from "../../src/stores/content-index.ts";
import { ContentIndexedFactStore } from "../../src/stores/content-indexed-facts.ts";
import { startUpstashLocal, type UpstashLocal } from "../../tools/upstash-local/index.ts";
import { InMemoryFactStore } from "../support/fakes/facts.ts";
import { deleteByPrefix, redisVariants } from "../emulator/redis/variants.ts";

/**
 * The content index on Redis (embedded engine, and a real Redis when one answers) in front of the
 * in-memory fact store: which lookups still reach the fact store, and that the index never
 * claims a content id is new while a fact holds it.
 */
const run = `ci${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
let n = 0;
const scope = (): FactScope => ({ tenant: run, userId: `u${(n += 1)}` });
const fact = (id: string, text: string, contentId?: string): Fact => ({
  ...createFact(id, { text, type: "fact", importance: 0.5 }, 1_800_000_000_000),
  ...(contentId ? { contentId } : {}),
});
const ref = (contentId: string) => ({ contentId, text: contentId });
const id = (i: number): string => `f${String(i).padStart(24, "0")}`;

for (const variant of await redisVariants()) {
  describe(`content index (${variant.name})`, () => {
    let local: UpstashLocal;
    let redis: Redis;
    let index: RedisContentIndex;
    beforeAll(async () => {
      local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, ...(variant.redisUrl ? { redisUrl: variant.redisUrl } : {}) });
      redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
      index = new RedisContentIndex(redis);
    });
    /** A new user whose (empty) index is complete after a first lookup. */
    const withCompleteIndex = async () => {
      const facts = new InMemoryFactStore();
      const store = new ContentIndexedFactStore(facts, index);
      const s = scope();
      await store.findByContent(s, [ref(id(9))]);
      return { facts, store, s };
    };
    afterAll(async () => {
      await deleteByPrefix(redis, `am:${run}:`);
      await local.close();
    });

    it("builds a new user's index from one listing, then answers new content without the fact store", async () => {
      const facts = new InMemoryFactStore();
      const store = new ContentIndexedFactStore(facts, index);
      const s = scope();
      expect(await store.findByContent(s, [ref(id(1))])).toEqual([{ holder: null, idTaken: false }]);
      expect(facts.calls).toEqual({ list: 1 });
      expect(await index.lookup(s, [id(1)])).toEqual({ complete: true, cursor: "", holders: [null], taken: [false] });
      await store.upsert(s, [fact(id(1), "one")]);
      expect(await store.findByContent(s, [ref(id(2))])).toEqual([{ holder: null, idTaken: false }]);
      expect(facts.calls).toEqual({ list: 1, upsert: 1 });
    });

    it("fetches only the recorded holders of known content ids, answering in the order asked", async () => {
      const { facts, store, s } = await withCompleteIndex();
      await store.upsert(s, [fact(id(1), "one"), fact(id(2), "two")]);
      const found = await store.findByContent(s, [ref(id(3)), ref(id(2)), ref(id(4)), ref(id(1))]);
      expect(found.map((m) => m.holder?.id ?? null)).toEqual([null, id(2), null, id(1)]);
      expect(found.map((m) => m.idTaken)).toEqual([false, true, false, true]);
      expect(facts.calls.get).toBe(1);
      expect(facts.calls.findByContent).toBeUndefined();
    });

    it("knows an edited fact by its new content and by the id it keeps", async () => {
      const { store, s } = await withCompleteIndex();
      await store.upsert(s, [fact(id(1), "first text")]);
      await store.upsert(s, [fact(id(1), "edited text", id(5))]);
      const [byNew, byOldId] = await store.findByContent(s, [ref(id(5)), ref(id(1))]);
      expect(byNew).toMatchObject({ holder: { id: id(1) }, idTaken: false });
      // the old text's content id is the fact's own id: taken (no holder), so a new statement needs a fresh id
      expect(byOldId).toEqual({ holder: null, idTaken: true });
    });

    it("answers what it knows of a holder unread, and refreshes it with one fact-store call", async () => {
      const { facts, store, s } = await withCompleteIndex();
      const stored = { ...fact(id(1), "one"), importance: 0.7, version: 3 };
      await store.upsert(s, [stored]);
      const [match] = await store.findByContent(s, [ref(id(1))], { known: true });
      expect(match).toEqual({
        holder: null,
        idTaken: true,
        known: { id: id(1), version: 3, importance: 0.7, createdAt: stored.createdAt, updatedAt: stored.updatedAt },
      });
      expect(facts.calls.get).toBeUndefined();
      expect(await store.refresh(s, [{ id: id(1), version: 4, updatedAt: stored.updatedAt + 5 }])).toEqual([]);
      expect(facts.all(s)[0]).toMatchObject({ version: 4, updatedAt: stored.updatedAt + 5, importance: 0.7, createdAt: stored.createdAt });
      expect((await index.lookup(s, [id(1)])).holders[0]).toMatchObject({ version: 4, updatedAt: stored.updatedAt + 5 });
      // a fact deleted behind the index's back: the refresh reports it and the index forgets it
      await facts.delete(s, [id(1)]);
      expect(await store.refresh(s, [{ id: id(1), version: 5, updatedAt: stored.updatedAt + 9 }])).toEqual([id(1)]);
      expect(await index.lookup(s, [id(1)])).toMatchObject({ holders: [null], taken: [false] });
    });

    it("forgets deleted facts, and clears the user's index with all of them", async () => {
      const { store, s } = await withCompleteIndex();
      await store.upsert(s, [fact(id(1), "one"), fact(id(2), "two")]);
      await store.delete(s, [id(1)]);
      const after = await index.lookup(s, [id(1), id(2)]);
      expect(after.holders.map((h) => h?.id ?? null)).toEqual([null, id(2)]);
      expect(after.taken).toEqual([false, true]);
      await store.deleteAll(s);
      expect(await index.lookup(s, [id(2)])).toEqual({ complete: false, cursor: "", holders: [null], taken: [false] });
    });

    it("a write that failed after it was recorded only costs a fetch that finds nothing", async () => {
      const { facts, store, s } = await withCompleteIndex();
      facts.failNext("upsert");
      await expect(store.upsert(s, [fact(id(1), "one")])).rejects.toThrow("upsert failed");
      expect(await store.findByContent(s, [ref(id(1))])).toEqual([{ holder: null, idTaken: false }]);
      expect(facts.calls.get).toBe(1);
    });

    it("finds facts written before the index, building it on over several lookups for a large user", async () => {
      const facts = new InMemoryFactStore();
      const store = new ContentIndexedFactStore(facts, index, { buildPage: 400, buildPages: 2 });
      const s = scope();
      // 1,001 facts written straight to the fact store: more than one lookup lists (2 pages of 400)
      await facts.upsert(
        s,
        Array.from({ length: 1001 }, (_, i) => fact(id(i), `text ${i}`)),
      );
      const first = await store.findByContent(s, [ref(id(1000))]);
      expect(first[0]?.holder?.id).toBe(id(1000));
      expect(facts.calls.list).toBe(2);
      expect(facts.calls.findByContent).toBe(1);
      expect((await index.lookup(s, [])).complete).toBe(false);
      // the next lookup lists the rest and completes the index; it still asks the fact store
      expect((await store.findByContent(s, [ref(id(7))]))[0]?.holder?.id).toBe(id(7));
      expect(facts.calls.list).toBe(3);
      const done = await index.lookup(s, [id(0), id(1000), id(1001)]);
      expect(done).toMatchObject({ complete: true, cursor: "", taken: [true, true, false] });
      expect(done.holders.map((h) => h?.id ?? null)).toEqual([id(0), id(1000), null]);
    });

    it("rejects ids that are not identifiers before they reach Lua", async () => {
      await expect(index.lookup(scope(), ["bad id"])).rejects.toThrow();
      await expect(index.record(scope(), [fact("x y", "bad id")])).rejects.toThrow();
      await expect(index.record(scope(), [{ ...fact(id(1), "nan"), importance: Number.NaN }])).rejects.toThrow();
    });
  });
}
