import { beforeEach, describe, expect, it } from "vitest";
import { index, seededVector, withData } from "./api-fixture.ts";

describe("fetch", () => {
  beforeEach(async () => {
    await index.upsert(
      withData([
        { id: "p-1", vector: seededVector(21), metadata: { n: 1 } },
        { id: "p-2", vector: seededVector(22), data: "two" },
        { id: "other", vector: seededVector(23) },
      ]),
    );
  });

  it("returns ids in order with null for missing ones", async () => {
    const res = await index.fetch(["p-2", "missing", "p-1"], { includeMetadata: true, includeData: true });
    expect(res).toEqual([{ id: "p-2", data: "two" }, null, { id: "p-1", metadata: { n: 1 } }]);
  });

  it("fetches by prefix in insertion order", async () => {
    const res = await index.fetch({ prefix: "p-" }, { includeVectors: true });
    expect(res.map((r) => r?.id)).toEqual(["p-1", "p-2"]);
    expect(res[0]?.vector).toEqual(seededVector(21));
  });

  it("accepts numeric ids", async () => {
    await index.upsert({ id: 7, vector: seededVector(24) });
    expect(await index.fetch([7])).toEqual([{ id: "7" }]);
  });

  it("rejects ids and prefix together", async () => {
    await expect(index.fetch({ ids: ["p-1"], prefix: "p" } as unknown as { prefix: string })).rejects.toThrow(
      "Only one of ids or prefix must be provided.",
    );
  });
});

describe("range", () => {
  beforeEach(async () => {
    await index.upsert(Array.from({ length: 20 }, (_, i) => ({ id: `id-${i}`, vector: seededVector(300 + i), metadata: { i } })));
  });

  it("pages in insertion order and looks ahead for the end", async () => {
    const first = await index.range({ cursor: 0, limit: 4 });
    expect(first.vectors.map((v) => v.id)).toEqual(["id-0", "id-1", "id-2", "id-3"]);
    expect(first.nextCursor).not.toBe("");
    const second = await index.range({ cursor: first.nextCursor, limit: 8 });
    expect(second.vectors.map((v) => v.id)).toEqual(["id-4", "id-5", "id-6", "id-7", "id-8", "id-9", "id-10", "id-11"]);
    const third = await index.range({ cursor: second.nextCursor, limit: 8, includeMetadata: true });
    expect(third.vectors).toHaveLength(8);
    expect(third.vectors[7]).toEqual({ id: "id-19", metadata: { i: 19 } });
    expect(third.nextCursor).toBe("");
  });

  it('accepts "0" and "" as the first cursor', async () => {
    for (const cursor of ["0", ""]) {
      const page = await index.range({ cursor, limit: 1 });
      expect(page.vectors.map((v) => v.id)).toEqual(["id-0"]);
    }
  });

  it("filters by prefix and includes vectors on request", async () => {
    const page = await index.range({ cursor: 0, limit: 100, prefix: "id-1", includeVectors: true });
    expect(page.vectors.map((v) => v.id)).toEqual(["id-1", ...Array.from({ length: 10 }, (_, i) => `id-1${i}`)]);
    expect(page.vectors[0]?.vector).toEqual(seededVector(301));
    expect(page.nextCursor).toBe("");
  });

  it("keeps going after deletes between pages", async () => {
    const first = await index.range({ cursor: 0, limit: 5 });
    await index.delete(["id-5", "id-6"]);
    const next = await index.range({ cursor: first.nextCursor, limit: 2 });
    expect(next.vectors.map((v) => v.id)).toEqual(["id-7", "id-8"]);
  });
});

describe("delete", () => {
  beforeEach(async () => {
    await index.upsert([
      { id: "d-1", vector: seededVector(41), metadata: { type: "animal" } },
      { id: "d-2", vector: seededVector(42), metadata: { type: "plant" } },
      { id: "e-1", vector: seededVector(43), metadata: { type: "animal" } },
    ]);
  });

  it("deletes by single id, id list, prefix and filter", async () => {
    expect(await index.delete("d-1")).toEqual({ deleted: 1 });
    expect(await index.delete("d-1")).toEqual({ deleted: 0 });
    expect(await index.delete(["d-2", "nope"])).toEqual({ deleted: 1 });
    await index.upsert({ id: "d-3", vector: seededVector(44) });
    expect(await index.delete({ prefix: "d-" })).toEqual({ deleted: 1 });
    expect(await index.delete({ filter: "type = 'animal'" })).toEqual({ deleted: 1 });
    expect((await index.info()).vectorCount).toBe(0);
  });

  it("requires exactly one criterion", async () => {
    await expect(index.delete({ ids: ["d-1"], prefix: "d" } as unknown as { prefix: string })).rejects.toThrow(
      "Only and only one of the ids, prefix, or filter must be provided.",
    );
    await expect(index.delete({} as unknown as { prefix: string })).rejects.toThrow(
      "Only and only one of the ids, prefix, or filter must be provided.",
    );
  });

  it("rejects an invalid filter with a message", async () => {
    await expect(index.delete({ filter: "type = " })).rejects.toThrow(/^Invalid filter\. At line 1:7 /);
  });
});

describe("update", () => {
  beforeEach(async () => {
    await index.upsert({ id: "u", vector: seededVector(51), metadata: { a: 1, nested: { x: 1, y: 2 } }, data: "old data" });
  });

  it("overwrites metadata by default", async () => {
    expect(await index.update({ id: "u", metadata: { b: 2 } })).toEqual({ updated: 1 });
    const [rec] = await index.fetch(["u"], { includeMetadata: true, includeData: true });
    expect(rec).toEqual({ id: "u", metadata: { b: 2 }, data: "old data" });
  });

  it("applies an RFC 7396 merge patch in PATCH mode", async () => {
    await index.update({ id: "u", metadata: { a: null, b: 2, nested: { x: null, z: 3 } }, metadataUpdateMode: "PATCH" });
    const [rec] = await index.fetch(["u"], { includeMetadata: true });
    expect(rec?.metadata).toEqual({ b: 2, nested: { y: 2, z: 3 } });
  });

  it("updates the vector only", async () => {
    await index.update({ id: "u", vector: seededVector(52) });
    const [rec] = await index.fetch(["u"], { includeMetadata: true, includeVectors: true });
    expect(rec).toEqual({ id: "u", vector: seededVector(52), metadata: { a: 1, nested: { x: 1, y: 2 } } });
    const [hit] = await index.query({ vector: seededVector(52), topK: 1 });
    expect(hit).toEqual({ id: "u", score: 1 });
  });

  it("re-embeds updated data and keeps the metadata", async () => {
    await index.update({ id: "u", data: "我叫小明，喜欢蓝色" });
    const [rec] = await index.fetch(["u"], { includeMetadata: true, includeData: true });
    expect(rec).toEqual({ id: "u", metadata: { a: 1, nested: { x: 1, y: 2 } }, data: "我叫小明，喜欢蓝色" });
    const [hit] = await index.query({ data: "我叫小明，喜欢蓝色", topK: 1 });
    expect(hit).toEqual({ id: "u", score: 1 });
  });

  it("reports 0 for a missing id", async () => {
    expect(await index.update({ id: "missing", metadata: { a: 1 } })).toEqual({ updated: 0 });
  });
});
