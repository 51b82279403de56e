import { Index } from "@upstash/vector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimilarityFunction } from "../../../tools/upstash-local/vector/config.ts";
import { startVectorEmulator, type VectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";

const started: VectorEmulator[] = [];

async function indexWith(similarity: SimilarityFunction, dimension: number, embedding = true): Promise<Index> {
  const emu = await startVectorEmulator({ index: { kind: "dense", similarity, dimension, embedding } });
  started.push(emu);
  return new Index({ url: emu.url, token: emu.token });
}

afterAll(async () => {
  await Promise.all(started.map((e) => e.close()));
});

const byId = (hits: { id: string | number; score: number }[]): Record<string, number> =>
  Object.fromEntries(hits.map((h) => [String(h.id), h.score]));

describe("COSINE", () => {
  it("scores (1 + cos) / 2", async () => {
    const index = await indexWith("COSINE", 3);
    await index.upsert([
      { id: "same", vector: [2, 0, 0] },
      { id: "diag", vector: [1, 1, 0] },
      { id: "orth", vector: [0, 3, 0] },
      { id: "opp", vector: [-1, 0, 0] },
      { id: "mixed", vector: [1, 2, 3] },
    ]);
    const hits = await index.query({ vector: [1, 0, 0], topK: 10 });
    expect(hits.map((h) => h.id)).toEqual(["same", "diag", "mixed", "orth", "opp"]);
    expect(byId(hits)).toEqual({
      same: 1,
      diag: (1 + 1 / Math.sqrt(2)) / 2,
      mixed: (1 + 1 / Math.sqrt(14)) / 2,
      orth: 0.5,
      opp: 0,
    });
  });
});

describe("EUCLIDEAN", () => {
  it("scores 1 / (1 + squared distance)", async () => {
    const index = await indexWith("EUCLIDEAN", 2);
    await index.upsert([
      { id: "origin", vector: [0, 0] },
      { id: "near", vector: [3, 3] },
      { id: "self", vector: [3, 4] },
      { id: "far", vector: [-10, 4] },
    ]);
    const hits = await index.query({ vector: [3, 4], topK: 10 });
    expect(hits.map((h) => h.id)).toEqual(["self", "near", "origin", "far"]);
    expect(byId(hits)).toEqual({ self: 1, near: 1 / 2, origin: 1 / 26, far: 1 / 170 });
  });
});

describe("DOT_PRODUCT", () => {
  it("scores (1 + dot) / 2", async () => {
    const index = await indexWith("DOT_PRODUCT", 2);
    await index.upsert([
      { id: "x", vector: [1, 0] },
      { id: "y", vector: [0, 1] },
      { id: "tilt", vector: [0.6, 0.8] },
      { id: "neg", vector: [-1, 0] },
    ]);
    const hits = await index.query({ vector: [0.6, 0.8], topK: 10 });
    expect(hits.map((h) => h.id)).toEqual(["tilt", "y", "x", "neg"]);
    expect(byId(hits)).toEqual({
      tilt: (1 + (0.6 * 0.6 + 0.8 * 0.8)) / 2,
      y: (1 + 0.8) / 2,
      x: (1 + 0.6) / 2,
      neg: (1 - 0.6) / 2,
    });
  });

  it("reports its settings in info", async () => {
    const index = await indexWith("DOT_PRODUCT", 2, false);
    expect(await index.info()).toMatchObject({
      dimension: 2,
      similarityFunction: "DOT_PRODUCT",
      denseIndex: { dimension: 2, similarityFunction: "DOT_PRODUCT", embeddingModel: "" },
    });
  });
});

describe("data mode (embedding model on)", () => {
  let index: Index;
  beforeAll(async () => {
    index = await indexWith("COSINE", 384);
    await index.upsert([
      { id: "name", data: "我叫小明，喜欢蓝色", metadata: { lang: "zh" } },
      { id: "stocks", data: "今天股市大幅下跌，投资者纷纷抛售" },
      { id: "alice", data: "My name is Alice and my favorite color is blue" },
      { id: "weather", data: "Heavy rain is expected in Paris tomorrow" },
    ]);
  });

  it("embeds the text and keeps it as data", async () => {
    const [rec] = await index.fetch(["name"], { includeData: true, includeMetadata: true, includeVectors: true });
    expect(rec).toMatchObject({ id: "name", data: "我叫小明，喜欢蓝色", metadata: { lang: "zh" } });
    const norm = Math.sqrt((rec?.vector ?? []).reduce((s, x) => s + x * x, 0));
    expect(rec?.vector).toHaveLength(384);
    expect(norm).toBeCloseTo(1, 12);
  });

  it("finds the related memory first, in Chinese and English", async () => {
    const zh = await index.query({ data: "用户叫什么名字? 小明", topK: 2, includeData: true });
    expect(zh[0]).toMatchObject({ id: "name", data: "我叫小明，喜欢蓝色" });
    expect((zh[0]?.score ?? 0) - (zh[1]?.score ?? 0)).toBeGreaterThan(0.05);
    const en = await index.query({ data: "What is the user's name? Alice", topK: 1 });
    expect(en[0]?.id).toBe("alice");
  });

  it("scores the stored text itself exactly 1", async () => {
    expect(await index.query({ data: "Heavy rain is expected in Paris tomorrow", topK: 1 })).toEqual([{ id: "weather", score: 1 }]);
  });

  it("routes a mixed queryMany to query-data", async () => {
    const res = await index.queryMany([
      { data: "小明", topK: 1 },
      { data: "Alice", topK: 1 },
    ]);
    expect(res.map((r) => r[0]?.id)).toEqual(["name", "alice"]);
  });

  it("stores data sent next to a vector verbatim", async () => {
    const vector = Array.from({ length: 384 }, (_, i) => (i === 0 ? 1 : 0));
    await index.upsert({ id: "verbatim", vector, data: "not embedded" });
    const [rec] = await index.fetch(["verbatim"], { includeData: true, includeVectors: true });
    expect(rec).toEqual({ id: "verbatim", vector, data: "not embedded" });
  });
});

describe("embedding model off", () => {
  it("answers 422 to upsert-data and query-data", async () => {
    const index = await indexWith("COSINE", 4, false);
    const message = "Embedding data for this index is not allowed. The index must be created with an embedding model to use it.";
    await expect(index.upsert({ id: "a", data: "text" })).rejects.toThrow(message);
    await expect(index.query({ data: "text", topK: 1 })).rejects.toThrow(message);
    await index.upsert({ id: "v", vector: [1, 0, 0, 0], data: "kept" });
    expect(await index.fetch(["v"], { includeData: true })).toEqual([{ id: "v", data: "kept" }]);
  });
});
