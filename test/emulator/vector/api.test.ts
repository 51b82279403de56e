import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Index } from "@upstash/vector";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startVectorEmulator, type VectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";
import { prng } from "../../support/prng.ts";

type VectorUpsert = Parameters<Index["upsert"]>[0];
/** The REST API stores `data` next to a vector; the client's types do not say so, the protocol does. */
const withData = (items: { id: string; vector: number[]; metadata?: Record<string, unknown>; data?: string }[]): VectorUpsert =>
  items as unknown as VectorUpsert;

/** A deterministic 384-dim vector, so failures are reproducible. */
function seededVector(seed: number, dim = 384): number[] {
  const next = prng(seed);
  return Array.from({ length: dim }, () => next() - 0.5);
}

let emu: VectorEmulator;
let index: Index;

beforeAll(async () => {
  emu = await startVectorEmulator({ index: { kind: "dense" } });
  index = new Index({ url: emu.url, token: emu.token });
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  await index.reset({ all: true });
  for (const ns of await index.listNamespaces()) if (ns !== "") await index.deleteNamespace(ns);
});

describe("upsert and query", () => {
  it("stores numeric ids as strings and scores an identical vector exactly 1", async () => {
    await index.upsert([
      { id: 33, vector: seededVector(1), metadata: { kind: "a" } },
      { id: "b", vector: seededVector(2) },
    ]);
    const hits = await index.query({ vector: seededVector(1), topK: 2, includeMetadata: true });
    expect(hits[0]).toEqual({ id: "33", score: 1, metadata: { kind: "a" } });
    expect(hits[1]?.id).toBe("b");
    expect(Object.keys(hits[1] ?? {})).toEqual(["id", "score"]); // absent metadata is omitted, not null
  });

  it("gives exactly 1 for every stored vector queried with itself", async () => {
    const vectors = Array.from({ length: 60 }, (_, i) => seededVector(100 + i));
    await index.upsert(vectors.map((vector, i) => ({ id: `v${i}`, vector })));
    for (let i = 0; i < vectors.length; i += 1) {
      const [top] = await index.query({ vector: vectors[i] ?? [], topK: 1 });
      expect(top).toEqual({ id: `v${i}`, score: 1 });
    }
  });

  it("returns vectors that round-trip, and data only when asked", async () => {
    const vector = seededVector(3).map((x, i) => (i === 0 ? 0.1 : i === 1 ? 0.2 : x));
    await index.upsert({ id: "r", vector, metadata: { m: 1 }, data: "raw text" });
    const [hit] = await index.query({ vector, topK: 1, includeVectors: true, includeData: true });
    expect(hit).toEqual({ id: "r", score: 1, vector, data: "raw text" });
    expect(hit?.vector?.slice(0, 2)).toEqual([0.1, 0.2]);
  });

  it("replaces the whole record on re-upsert", async () => {
    await index.upsert({ id: "x", vector: seededVector(4), metadata: { old: true }, data: "old" });
    await index.upsert({ id: "x", vector: seededVector(5) });
    const [rec] = await index.fetch(["x"], { includeMetadata: true, includeData: true, includeVectors: true });
    expect(rec).toEqual({ id: "x", vector: seededVector(5) });
  });

  it("limits results to topK, sorted by score", async () => {
    await index.upsert(Array.from({ length: 30 }, (_, i) => ({ id: `k${i}`, vector: seededVector(200 + i) })));
    const hits = await index.query({ vector: seededVector(999), topK: 7 });
    expect(hits).toHaveLength(7);
    const scores = hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("answers queryMany with one list per query", async () => {
    await index.upsert([
      { id: "q1", vector: seededVector(11) },
      { id: "q2", vector: seededVector(12) },
    ]);
    const many = await index.queryMany([
      { vector: seededVector(11), topK: 1 },
      { vector: seededVector(12), topK: 1 },
    ]);
    expect(many).toEqual([[{ id: "q1", score: 1 }], [{ id: "q2", score: 1 }]]);
    const one = await index.queryMany([{ vector: seededVector(12), topK: 1 }]);
    expect(one).toEqual([[{ id: "q2", score: 1 }]]);
  });

  it("rejects a vector of the wrong dimension with 422 text", async () => {
    await expect(index.upsert({ id: "bad", vector: [1, 2] })).rejects.toThrow("Invalid vector dimension: 2, expected: 384");
    await expect(index.query({ vector: [1, 2], topK: 1 })).rejects.toThrow("Invalid vector dimension: 2, expected: 384");
  });

  it("rejects sparse vectors on the dense index", async () => {
    await expect(index.upsert({ id: "s", sparseVector: { indices: [1], values: [0.5] } })).rejects.toThrow(/sparse/i);
    await expect(index.query({ sparseVector: { indices: [1], values: [0.5] }, topK: 1 })).rejects.toThrow(/sparse/i);
  });
});

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

describe("namespaces, info and reset", () => {
  it("isolates namespaces and lists them", async () => {
    const ns = index.namespace("tenant-a");
    await ns.upsert({ id: "n1", vector: seededVector(61), metadata: { t: "a" } });
    await index.upsert({ id: "d1", vector: seededVector(61) });
    expect(await ns.query({ vector: seededVector(61), topK: 5, includeMetadata: true })).toEqual([
      { id: "n1", score: 1, metadata: { t: "a" } },
    ]);
    expect(await index.query({ vector: seededVector(61), topK: 5 })).toEqual([{ id: "d1", score: 1 }]);
    expect(await ns.fetch(["n1", "d1"])).toEqual([{ id: "n1" }, null]);
    expect((await ns.range({ cursor: 0, limit: 10 })).vectors).toEqual([{ id: "n1" }]);
    expect(await index.listNamespaces()).toEqual(["", "tenant-a"]);
    expect(await ns.update({ id: "n1", metadata: { t: "b" } })).toEqual({ updated: 1 });
    expect(await ns.delete("n1")).toEqual({ deleted: 1 });
  });

  it("reports info with namespace counts", async () => {
    await index.upsert([
      { id: "a", vector: seededVector(71) },
      { id: "b", vector: seededVector(72) },
    ]);
    await index.namespace("ns").upsert({ id: "c", vector: seededVector(73) });
    const info = await index.info();
    expect(info).toMatchObject({
      vectorCount: 3,
      pendingVectorCount: 0,
      dimension: 384,
      similarityFunction: "COSINE",
      indexType: "DENSE",
      denseIndex: { dimension: 384, similarityFunction: "COSINE", embeddingModel: expect.any(String) },
      namespaces: { "": { vectorCount: 2, pendingVectorCount: 0 }, ns: { vectorCount: 1, pendingVectorCount: 0 } },
    });
    expect(info.indexSize).toBeGreaterThan(3 * 384);
  });

  it("resets one namespace, keeping it listed, or all of them", async () => {
    const ns = index.namespace("keep");
    await ns.upsert({ id: "k", vector: seededVector(81) });
    await index.upsert({ id: "d", vector: seededVector(82) });
    expect(await ns.reset()).toBe("Success");
    expect((await index.info()).namespaces).toEqual({
      "": { vectorCount: 1, pendingVectorCount: 0 },
      keep: { vectorCount: 0, pendingVectorCount: 0 },
    });
    await ns.upsert({ id: "k", vector: seededVector(81) });
    expect(await index.reset({ all: true })).toBe("Success");
    expect((await index.info()).vectorCount).toBe(0);
    expect(await index.listNamespaces()).toEqual(["", "keep"]);
  });

  it("resets only the default namespace without options", async () => {
    await index.namespace("other").upsert({ id: "o", vector: seededVector(83) });
    await index.upsert({ id: "d", vector: seededVector(84) });
    await index.reset();
    expect((await index.info()).namespaces).toMatchObject({ "": { vectorCount: 0 }, other: { vectorCount: 1 } });
  });

  it("deletes namespaces, but not a missing or the default one", async () => {
    await index.namespace("gone").upsert({ id: "g", vector: seededVector(85) });
    expect(await index.deleteNamespace("gone")).toBe("Success");
    expect(await index.listNamespaces()).not.toContain("gone");
    await expect(index.deleteNamespace("gone")).rejects.toThrow("Namespace gone for the index upstash-local does not exist");
    await expect(index.deleteNamespace("")).rejects.toThrow(/default namespace/);
  });
});

describe("resumable query", () => {
  it("pages through the ranking and stops", async () => {
    await index.upsert(Array.from({ length: 6 }, (_, i) => ({ id: `r${i}`, vector: seededVector(90 + i) })));
    const { result, fetchNext, stop } = await index.resumableQuery({ vector: seededVector(90), topK: 2, maxIdle: 60 });
    expect(result.map((r) => r.id)[0]).toBe("r0");
    expect(result).toHaveLength(2);
    const next = await fetchNext(3);
    const rest = await fetchNext(5);
    const ids = [...result, ...next, ...rest].map((r) => r.id);
    expect(next).toHaveLength(3);
    expect(rest).toHaveLength(1);
    expect(new Set(ids).size).toBe(6);
    expect(await stop()).toBe("Success");
  });
});

describe("persistence", () => {
  it("keeps data across close and restart with the same dataDir", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "vector-persist-"));
    try {
      const first = await startVectorEmulator({ dataDir, index: { kind: "dense" } });
      const a = new Index({ url: first.url, token: first.token });
      await a.upsert(
        withData([
          { id: "keep-1", vector: seededVector(1), metadata: { m: "x" }, data: "hello" },
          { id: "keep-2", vector: seededVector(2) },
        ]),
      );
      await a.namespace("empty").upsert({ id: "tmp", vector: seededVector(3) });
      await a.namespace("empty").reset();
      await first.close();
      expect(JSON.parse(await readFile(join(dataDir, "vector.json"), "utf8"))).toMatchObject({ dimension: 384 });

      const second = await startVectorEmulator({ dataDir, index: { kind: "dense" } });
      const b = new Index({ url: second.url, token: second.token });
      expect(await b.fetch(["keep-1", "keep-2"], { includeMetadata: true, includeData: true, includeVectors: true })).toEqual([
        { id: "keep-1", vector: seededVector(1), metadata: { m: "x" }, data: "hello" },
        { id: "keep-2", vector: seededVector(2) },
      ]);
      expect(await b.listNamespaces()).toEqual(["", "empty"]);
      const [hit] = await b.query({ vector: seededVector(2), topK: 1 });
      expect(hit).toEqual({ id: "keep-2", score: 1 });
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("writes the file in the background after mutations (debounced)", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "vector-persist-"));
    try {
      const emu2 = await startVectorEmulator({ dataDir, persistDebounceMs: 20, index: { kind: "dense" } });
      await new Index({ url: emu2.url, token: emu2.token }).upsert({ id: "bg", vector: seededVector(9) });
      // Poll instead of sleeping a fixed time: the write is asynchronous and the machine may be busy.
      let saved: { namespaces: { records: { id: string }[] }[] } | undefined;
      for (let i = 0; i < 100 && !saved; i += 1) {
        await new Promise((r) => setTimeout(r, 50));
        saved = await readFile(join(dataDir, "vector.json"), "utf8")
          .then((text) => JSON.parse(text) as NonNullable<typeof saved>)
          .catch(() => undefined);
      }
      expect(saved?.namespaces[0]?.records.map((r) => r.id)).toEqual(["bg"]);
      await emu2.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses a data file written with another dimension", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "vector-persist-"));
    try {
      const small = await startVectorEmulator({ dataDir, index: { kind: "dense", dimension: 2 } });
      await new Index({ url: small.url, token: small.token }).upsert({ id: "s", vector: [1, 0] });
      await small.close();
      await expect(startVectorEmulator({ dataDir, index: { kind: "dense" } })).rejects.toThrow(/2-dimensional/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
