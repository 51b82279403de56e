import { FusionAlgorithm, Index, QueryMode, WeightingStrategy } from "@upstash/vector";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startVectorEmulator, type VectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";

let emu: VectorEmulator;
let index: Index;
type Upsert = Parameters<Index["upsert"]>[0];

async function post(path: string, body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${emu.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${emu.token}` }, body });
  return { status: res.status, json: await res.json() };
}

/** The vector-js fixture `populateHybridIndex` (its tests run it against the live service). */
async function populate(): Promise<void> {
  await index.upsert([
    { id: "id0", vector: [0.1, 0.2], sparseVector: { indices: [0, 1], values: [0.1, 0.2] } },
    { id: "id1", vector: [0.2, 0.3], sparseVector: { indices: [1, 2], values: [0.2, 0.3] }, metadata: { key: "value" } },
    { id: "id2", vector: [0.3, 0.4], sparseVector: { indices: [2, 3], values: [0.3, 0.4] }, metadata: { key: "value" }, data: "data" },
  ] as unknown as Upsert);
}

/** Dense scores (COSINE) a 1, b 0.5, c 0; sparse scores b 3, a 1, c absent. */
async function populateSmall(): Promise<void> {
  await index.upsert([
    { id: "a", vector: [1, 0], sparseVector: { indices: [7], values: [1] }, metadata: { group: "x" } },
    { id: "b", vector: [0, 1], sparseVector: { indices: [7], values: [3] }, metadata: { group: "y" } },
    { id: "c", vector: [-1, 0], sparseVector: { indices: [8], values: [1] }, metadata: { group: "x" } },
  ]);
}
const small = { vector: [1, 0], sparseVector: { indices: [7], values: [1] }, topK: 10 };

beforeAll(async () => {
  emu = await startVectorEmulator({ index: { kind: "hybrid", dimension: 2 } });
  index = new Index({ url: emu.url, token: emu.token });
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  await index.reset({ all: true });
});

describe("hybrid records", () => {
  it("require both parts; a half record is refused in Upstash's shape and nothing is written", async () => {
    const cases: [string, number, RegExp][] = [
      ['{"id":"v","vector":[1,0]}', 422, /requires both vector and sparseVector; id "v" has only vector/],
      ['{"id":"s","sparseVector":{"indices":[1],"values":[1]}}', 422, /id "s" has only sparseVector/],
      ['{"id":"n"}', 400, /both vector and sparseVector are required for id "n"/],
      ['[{"id":"ok","vector":[1,0],"sparseVector":{"indices":[1],"values":[1]}},{"id":"half","vector":[0,1]}]', 422, /has only vector/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await post("/upsert", body);
      expect(answer.status, body).toBe(status);
      expect(answer.json).toMatchObject({ error: expect.stringMatching(message), status });
    }
    await expect(index.upsert({ id: "v", vector: [1, 0] })).rejects.toThrow(/requires both/);
    expect((await index.info()).vectorCount).toBe(0);
  });

  it("fetch, range and query return both parts with includeVectors", async () => {
    await populate();
    const both = { id: "id0", vector: [0.1, 0.2], sparseVector: { indices: [0, 1], values: [0.1, 0.2] } };
    expect(await index.fetch(["id0"], { includeVectors: true })).toEqual([both]);
    expect((await index.range({ cursor: 0, limit: 1, includeVectors: true })).vectors).toEqual([both]);
    const [hit] = await index.query({ vector: [0.1, 0.2], topK: 1, includeVectors: true });
    expect(hit).toEqual({ ...both, score: 1 });
  });

  it("updates both parts together or neither; data re-embeds both", async () => {
    await populate();
    expect((await post("/update", '{"id":"id0","vector":[1,1]}')).json).toMatchObject({
      error: "On a hybrid index, vector and sparseVector must be updated together",
      status: 422,
    });
    expect(await index.update({ id: "id0", vector: [1, 1], sparseVector: { indices: [9], values: [2] } })).toEqual({ updated: 1 });
    expect(await index.fetch(["id0"], { includeVectors: true })).toEqual([
      { id: "id0", vector: [1, 1], sparseVector: { indices: [9], values: [2] } },
    ]);
    expect(await index.update({ id: "id0", data: "red apples" })).toEqual({ updated: 1 });
    const [rec] = await index.fetch(["id0"], { includeVectors: true, includeData: true });
    expect(rec?.data).toBe("red apples");
    expect(rec?.vector).not.toEqual([1, 1]);
    expect(rec?.sparseVector?.indices).toHaveLength(2);
  });

  it("reports HYBRID in info with a denseIndex and a sparseIndex block", async () => {
    expect(await index.info()).toMatchObject({
      dimension: 2,
      similarityFunction: "COSINE",
      indexType: "HYBRID",
      denseIndex: { dimension: 2, similarityFunction: "COSINE", embeddingModel: "LOCAL_HASHING_EMBEDDER_WEIGHTED" },
      sparseIndex: { embeddingModel: "BM25" },
    });
  });
});

describe("fusion", () => {
  it("RRF (default): each list maps rank r (from 0) to 1/(r + 60), summed", async () => {
    await populateSmall();
    // dense ranks a 0, b 1, c 2; sparse ranks b 0, a 1. a = b = 1/60 + 1/61 (tie: first inserted first); c = 1/62.
    const hits = await index.query(small);
    expect(hits.map((h) => h.id)).toEqual(["a", "b", "c"]);
    expect(hits[0]?.score).toBeCloseTo(1 / 60 + 1 / 61, 7);
    expect(hits[1]?.score).toBe(hits[0]?.score);
    expect(hits[2]?.score).toBeCloseTo(1 / 62, 7);
    expect(await index.query({ ...small, fusionAlgorithm: FusionAlgorithm.RRF })).toEqual(hits);
  });

  it("DBSF: each list normalized by (s - (mean - 3 sd)) / (6 sd), sample sd, then summed", async () => {
    await populateSmall();
    // dense 1, 0.5, 0: mean 0.5, sd 0.5 -> a 2/3, b 1/2, c 1/3.
    // sparse 3, 1: mean 2, sd sqrt 2 -> b (3 - 2 + 3 sqrt2) / (6 sqrt2) = 0.6178511, a 0.3821489.
    const hits = await index.query({ ...small, fusionAlgorithm: FusionAlgorithm.DBSF });
    expect(hits.map((h) => h.id)).toEqual(["b", "a", "c"]);
    const expected = [0.5 + 0.6178511, 2 / 3 + 0.3821489, 1 / 3];
    hits.forEach((h, i) => {
      expect(h.score).toBeCloseTo(expected[i] ?? Number.NaN, 6);
    });
  });

  it("matches the live service's fused scores in the vector-js tests", async () => {
    await populate();
    const results = await index.queryMany([
      { topK: 1, vector: [0.1, 0.1], sparseVector: { indices: [3, 4], values: [0.1, 0.2] }, fusionAlgorithm: FusionAlgorithm.RRF },
      { topK: 1, vector: [0.5, 0.1], sparseVector: { indices: [0, 1], values: [0.5, 0.1] }, includeVectors: true },
      { topK: 1, sparseVector: { indices: [2, 3], values: [0.5, 0.5] }, weightingStrategy: WeightingStrategy.IDF, includeMetadata: true },
    ]);
    expect(results).toEqual([
      [{ id: "id2", score: 0.033_333_335 }],
      [{ id: "id0", score: 0.032_795_697, vector: [0.1, 0.2], sparseVector: { indices: [0, 1], values: [0.1, 0.2] } }],
      [{ id: "id2", score: 0.266_666_38, metadata: { key: "value" } }],
    ]);
    const ranked = await index.query({ vector: [0.2, 0.3], sparseVector: { indices: [0, 1, 3], values: [0.1, 0.5, 0.1] }, topK: 5 });
    expect(ranked.map((r) => r.id)).toEqual(["id1", "id0", "id2"]); // vector-py test_query_hybrid_index
  });

  it("fuses resumable pages like the live service (DBSF over the next k of each list)", async () => {
    await populate();
    const { result, fetchNext, stop } = await index.resumableQuery({
      vector: [0.1, 0.1],
      sparseVector: { indices: [0], values: [0.1] },
      topK: 2,
      weightingStrategy: WeightingStrategy.IDF,
      fusionAlgorithm: FusionAlgorithm.DBSF,
      maxIdle: 3600,
    });
    // The SDK test expects 0.617851; the service's float32 steps print one more digit here (0.61785114).
    expect(result.map((r) => r.id)).toEqual(["id2", "id0"]);
    expect(result[0]?.score).toBeCloseTo(0.617_851, 6);
    expect(result[1]?.score).toBe(0.5);
    expect(await fetchNext(1)).toEqual([{ id: "id1", score: 0.5 }]);
    expect(await fetchNext(1)).toEqual([]);
    await stop();
  });

  it("a query with only one part returns that component's raw ranking", async () => {
    await populateSmall();
    expect(await index.query({ vector: [1, 0], topK: 10 })).toEqual([
      { id: "a", score: 1 },
      { id: "b", score: 0.5 },
      { id: "c", score: 0 },
    ]);
    expect(await index.query({ sparseVector: { indices: [7], values: [1] }, topK: 10 })).toEqual([
      { id: "b", score: 3 },
      { id: "a", score: 1 },
    ]);
  });

  it("applies filters in every mode", async () => {
    await populateSmall();
    const filter = "group = 'x'";
    expect((await index.query({ ...small, filter })).map((h) => h.id)).toEqual(["a", "c"]);
    expect((await index.query({ ...small, filter, fusionAlgorithm: FusionAlgorithm.DBSF })).map((h) => h.id)).toEqual(["a", "c"]);
    expect((await index.query({ vector: [1, 0], topK: 10, filter })).map((h) => h.id)).toEqual(["a", "c"]);
    expect((await index.query({ sparseVector: { indices: [7], values: [1] }, topK: 10, filter })).map((h) => h.id)).toEqual(["a"]);
    // Filtering happens before fusion: with b gone, a is first in both lists.
    expect((await index.query({ ...small, filter }))[0]?.score).toBeCloseTo(2 / 60, 7);
  });
});

describe("text on a hybrid index (dense model + BM25)", () => {
  let text: Index;
  let textEmu: VectorEmulator;
  beforeAll(async () => {
    textEmu = await startVectorEmulator(); // the default index: hybrid, 1024 dims, both models
    text = new Index({ url: textEmu.url, token: textEmu.token });
    await text.upsert([
      { id: "zh-name", data: "我叫小明，喜欢蓝色。", metadata: { lang: "zh" } },
      { id: "zh-peanut", data: "我对花生过敏。", metadata: { lang: "zh" } },
      { id: "zh-stocks", data: "今天股市大幅下跌，投资者纷纷抛售", metadata: { lang: "zh" } },
      { id: "en-dog", data: "My dog is named Biscuit and he is a golden retriever.", metadata: { lang: "en" } },
      { id: "en-berlin", data: "I moved to Berlin last year for a new job.", metadata: { lang: "en" } },
      { id: "fruit", data: "Apple apple banana", metadata: { lang: "en" } },
    ]);
  });
  afterAll(async () => {
    await textEmu.close();
  });

  it("is the default index and embeds both parts", async () => {
    expect(await text.info()).toMatchObject({ indexType: "HYBRID", dimension: 1024, sparseIndex: { embeddingModel: "BM25" } });
    const [rec] = await text.fetch(["fruit"], { includeVectors: true });
    expect(rec?.vector).toHaveLength(1024);
    expect(rec?.sparseVector?.indices).toHaveLength(2);
  });

  it("queryMode HYBRID (default) fuses, DENSE and SPARSE return one component's raw scores", async () => {
    const q = { data: "Apple apple banana", topK: 3 };
    const [dense] = await text.query({ ...q, queryMode: QueryMode.DENSE });
    expect(dense).toEqual({ id: "fruit", score: 1 }); // same text, same dense vector
    const [sparse] = await text.query({ ...q, queryMode: QueryMode.SPARSE });
    expect(sparse?.id).toBe("fruit");
    expect(sparse?.score).toBeCloseTo(4.4 / 2.384375 + 2.2 / 1.384375, 6); // BM25 document values, query terms weigh 1
    const [fused] = await text.query(q);
    expect(fused).toEqual({ id: "fruit", score: 0.033_333_335 }); // first in both lists: 1/60 + 1/60
    expect(await text.query({ ...q, queryMode: QueryMode.HYBRID })).toEqual(await text.query(q));
  });

  it("ranks the relevant Chinese and English memory first in every mode, and filters apply", async () => {
    const modes = [QueryMode.HYBRID, QueryMode.DENSE, QueryMode.SPARSE];
    const cases: [string, string][] = [
      ["用户对什么过敏？", "zh-peanut"],
      ["小明喜欢什么颜色", "zh-name"],
      ["What is the name of the user's dog?", "en-dog"],
      ["Which city did the user move to?", "en-berlin"],
    ];
    for (const queryMode of modes) {
      for (const [data, id] of cases) {
        const [top] = await text.query({ data, topK: 3, queryMode, weightingStrategy: WeightingStrategy.IDF });
        expect(top?.id, `${queryMode} ${data}`).toBe(id);
      }
      const zhOnly = await text.query({ data: "Which city did the user move to?", topK: 10, queryMode, filter: "lang = 'zh'" });
      expect(
        zhOnly.every((h) => String(h.id).startsWith("zh-")),
        queryMode,
      ).toBe(true);
    }
  });
});
