import { describe, expect, it } from "vitest";
import { mergePatch } from "../../../tools/upstash-local/vector/merge-patch.ts";
import { makeScorer } from "../../../tools/upstash-local/vector/scoring.ts";
import { NamespaceStore } from "../../../tools/upstash-local/vector/store.ts";
import { TopK } from "../../../tools/upstash-local/vector/topk.ts";
import { prng } from "../../support/prng.ts";

describe("TopK", () => {
  it("keeps the same items as a full sort, ties by order", () => {
    const rand = prng(1);
    for (const k of [0, 1, 3, 10, 100, 500]) {
      const items = Array.from({ length: 300 }, (_, order) => ({ score: Math.floor(rand() * 20) / 20, order }));
      const top = new TopK<number>(k);
      for (const it of items) top.offer(it.score, it.order, it.order);
      const expected = [...items].sort((a, b) => b.score - a.score || a.order - b.order).slice(0, k);
      expect(top.sorted().map((x) => x.item)).toEqual(expected.map((x) => x.order));
    }
  });
});

describe("scoring", () => {
  it("scores a vector against itself exactly 1 for any dimension (COSINE)", () => {
    const rand = prng(2);
    for (const dim of [1, 2, 3, 5, 7, 384, 1536]) {
      for (let n = 0; n < 50; n += 1) {
        const v = Float64Array.from({ length: dim }, () => (rand() - 0.5) * 10 ** Math.floor(rand() * 6 - 3));
        const store = new NamespaceStore(dim);
        store.upsert("x", { vector: v });
        expect(store.search(Float64Array.from(v), "COSINE", 1)[0]?.score).toBe(1);
        expect(store.search(Float64Array.from(v), "EUCLIDEAN", 1)[0]?.score).toBe(1);
      }
    }
  });

  it("matches a straightforward computation", () => {
    const rand = prng(3);
    const a = Float64Array.from({ length: 9 }, () => rand() - 0.5);
    const b = Float64Array.from({ length: 9 }, () => rand() - 0.5);
    const dot = a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
    const na = Math.hypot(...a);
    const nb = Math.hypot(...b);
    const dist2 = a.reduce((s, x, i) => s + (x - (b[i] ?? 0)) ** 2, 0);
    const nb2 = b.reduce((s, x) => s + x * x, 0);
    expect(makeScorer("COSINE", a)(b, 0, nb2)).toBeCloseTo((1 + dot / (na * nb)) / 2, 14);
    expect(makeScorer("EUCLIDEAN", a)(b, 0, nb2)).toBeCloseTo(1 / (1 + dist2), 14);
    expect(makeScorer("DOT_PRODUCT", a)(b, 0, nb2)).toBeCloseTo((1 + dot) / 2, 14);
    expect(makeScorer("COSINE", new Float64Array(9))(b, 0, nb2)).toBe(0.5); // zero vector
  });
});

describe("NamespaceStore", () => {
  it("reuses slots after deletes without mixing up vectors, and keeps insertion order", () => {
    const store = new NamespaceStore(2);
    for (let i = 0; i < 40; i += 1) store.upsert(`r${i}`, { vector: [i, 1] });
    for (let i = 0; i < 40; i += 2) store.delete(`r${i}`);
    for (let i = 100; i < 130; i += 1) store.upsert(`r${i}`, { vector: [i, 1] });
    store.upsert("r1", { vector: [1, 2] }); // re-upsert keeps position
    const ids = [...store.records()].map((r) => r.id);
    expect(ids.slice(0, 3)).toEqual(["r1", "r3", "r5"]);
    expect(ids.at(-1)).toBe("r129");
    for (const r of store.records()) {
      const n = Number(r.id.slice(1));
      expect(store.vector(r)).toEqual(r.id === "r1" ? [1, 2] : [n, 1]);
    }
    expect(store.size).toBe(50);
  });
});

describe("mergePatch (RFC 7396)", () => {
  it("follows the RFC examples", () => {
    expect(mergePatch({ a: "b" }, { a: "c" })).toEqual({ a: "c" });
    expect(mergePatch({ a: "b" }, { b: "c" })).toEqual({ a: "b", b: "c" });
    expect(mergePatch({ a: "b" }, { a: null })).toEqual({});
    expect(mergePatch({ a: { b: "c" } }, { a: { b: "d", c: null } })).toEqual({ a: { b: "d" } });
    expect(mergePatch({ a: [{ b: "c" }] }, { a: [1] })).toEqual({ a: [1] });
    expect(mergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
    expect(mergePatch([1, 2], { a: "b", c: null })).toEqual({ a: "b" });
    expect(mergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
  });
});
