/** The `USE_LITE` dense model through the official client: data upsert and query, hybrid with BM25, each part alone. */
import { FusionAlgorithm, Index, QueryMode } from "@upstash/vector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVectorEmulator, type VectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";

let hybrid: VectorEmulator;
let dense: VectorEmulator;
let index: Index;
let denseIndex: Index;

const MEMORIES = [
  { id: "dog", data: "I adopted a golden retriever last spring" },
  { id: "job", data: "I work as a nurse in Porto" },
  { id: "brother", data: "My brother lives in Toronto" },
  { id: "peanuts", data: "I am allergic to peanuts" },
  { id: "name", data: "我叫小明，喜欢蓝色" },
  { id: "city", data: "我住在上海浦东" },
];

beforeAll(async () => {
  hybrid = await startVectorEmulator({ index: { kind: "hybrid", denseModel: "USE_LITE" } });
  dense = await startVectorEmulator({ index: { kind: "dense", denseModel: "USE_LITE" } });
  index = new Index({ url: hybrid.url, token: hybrid.token, enableTelemetry: false });
  denseIndex = new Index({ url: dense.url, token: dense.token, enableTelemetry: false });
  await index.upsert(MEMORIES, { namespace: "m" });
  await denseIndex.upsert(MEMORIES, { namespace: "m" });
}, 120_000);
afterAll(async () => {
  await Promise.all([hybrid.close(), dense.close()]);
});

describe("USE_LITE dense model (sentence model for English, hashing for CJK)", () => {
  it("info names the model, its dimension (512 + 512 by default) and that it has loaded", async () => {
    const info = await index.info();
    expect((info as typeof info & { indexType?: string }).indexType).toBe("HYBRID");
    expect(info.denseIndex).toMatchObject({
      dimension: 1024,
      embeddingModel: "LOCAL_USE_LITE_EN+HASHING_CJK",
      embeddingModelStatus: "ready",
    });
    expect(info.sparseIndex?.embeddingModel).toBe("BM25");
    expect((await denseIndex.info()).dimension).toBe(1024);
  });

  it("dense-only: a paraphrase sharing no word with its memory finds it first", async () => {
    for (const [question, id] of [
      ["What pet do I have?", "dog"],
      ["What do I do for a living?", "job"],
      ["Which relative is in Canada?", "brother"],
    ] as const) {
      const [top] = await index.query({ data: question, topK: 3, queryMode: QueryMode.DENSE }, { namespace: "m" });
      expect(top?.id, question).toBe(id);
      const [alone] = await denseIndex.query({ data: question, topK: 3 }, { namespace: "m" });
      expect(alone?.id, question).toBe(id);
    }
  });

  it("sparse-only: BM25 matches words only, so the paraphrase finds nothing and a shared word finds its memory", async () => {
    expect(await index.query({ data: "What pet do I have?", topK: 3, queryMode: QueryMode.SPARSE }, { namespace: "m" })).toEqual([]);
    const hits = await index.query({ data: "peanuts", topK: 3, queryMode: QueryMode.SPARSE }, { namespace: "m" });
    expect(hits.map((h) => h.id)).toEqual(["peanuts"]);
  });

  it("hybrid (RRF and DBSF): a query with a shared word and the right meaning ranks its memory first", async () => {
    for (const fusionAlgorithm of [FusionAlgorithm.RRF, FusionAlgorithm.DBSF]) {
      const [top] = await index.query({ data: "Which nuts am I allergic to?", topK: 3, fusionAlgorithm }, { namespace: "m" });
      expect(top?.id, fusionAlgorithm).toBe("peanuts");
    }
  });

  it("Chinese is compared by its characters, not collapsed: each Chinese query finds its own memory", async () => {
    const [name] = await index.query({ data: "我喜欢什么颜色", topK: 2, queryMode: QueryMode.DENSE }, { namespace: "m" });
    const [city] = await index.query({ data: "我住在哪里", topK: 2, queryMode: QueryMode.DENSE }, { namespace: "m" });
    expect(name?.id).toBe("name");
    expect(city?.id).toBe("city");
    // Two different Chinese texts are not near-identical, as a sentence model that cannot read them makes them.
    const [self] = await index.query(
      { data: "今天天气怎么样", topK: 1, queryMode: QueryMode.DENSE, includeData: true },
      { namespace: "m" },
    );
    expect(self?.score ?? 1).toBeLessThan(0.75);
  });

  it("across scripts the dense parts do not overlap: an English query scores 0.5 (cosine 0) against Chinese memories", async () => {
    const hits = await index.query({ data: "What colour do I like?", topK: 10, queryMode: QueryMode.DENSE }, { namespace: "m" });
    for (const id of ["name", "city"]) expect(hits.find((h) => h.id === id)?.score, id).toBe(0.5);
    const zh = await index.query({ data: "我的狗叫什么名字", topK: 10, queryMode: QueryMode.DENSE }, { namespace: "m" });
    for (const id of ["dog", "job", "brother", "peanuts"]) expect(zh.find((h) => h.id === id)?.score, id).toBe(0.5);
  });

  it("an identical text scores 1 and fetch returns the stored vector of 1024 values", async () => {
    const [top] = await index.query(
      { data: "I adopted a golden retriever last spring", topK: 1, queryMode: QueryMode.DENSE },
      { namespace: "m" },
    );
    expect(top).toMatchObject({ id: "dog" });
    expect(top?.score).toBeCloseTo(1, 6);
    const [record] = await index.fetch(["dog"], { namespace: "m", includeVectors: true });
    expect(record?.vector).toHaveLength(1024);
  });

  it("update re-embeds new data with the model", async () => {
    await index.upsert({ id: "tmp", data: "I play the violin in an orchestra" }, { namespace: "u" });
    await index.update({ id: "tmp", data: "I grow tomatoes on my balcony" }, { namespace: "u" });
    const [top] = await index.query({ data: "Do I have a vegetable garden?", topK: 1, queryMode: QueryMode.DENSE }, { namespace: "u" });
    expect(top?.id).toBe("tmp");
    expect(top?.score ?? 0).toBeGreaterThan(0.6);
  });
});
