import { describe, expect, it } from "vitest";
import { index, seededVector } from "./api-fixture.ts";

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
