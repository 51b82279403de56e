import { Index, WeightingStrategy } from "@upstash/vector";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { termId } from "../../../tools/upstash-local/vector/terms.ts";
import { startVectorEmulator, type VectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";

let emu: VectorEmulator;
let index: Index;

/** Raw POST, to see the exact status and error envelope. */
async function post(path: string, body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${emu.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${emu.token}` }, body });
  return { status: res.status, json: await res.json() };
}

type Upsert = Parameters<Index["upsert"]>[0];

/**
 * The vector-js test fixture (`populateSparseIndex`), which its tests run against the live service.
 * The REST API stores `data` next to a vector; the client's types do not say so, the protocol does.
 */
async function populate(): Promise<void> {
  await index.upsert([
    { id: "id0", sparseVector: { indices: [0, 1], values: [0.1, 0.2] } },
    { id: "id1", sparseVector: { indices: [1, 2], values: [0.2, 0.3] }, metadata: { key: "value" } },
    { id: "id2", sparseVector: { indices: [2, 3], values: [0.3, 0.4] }, metadata: { key: "value" }, data: "data" },
  ] as unknown as Upsert);
}

beforeAll(async () => {
  emu = await startVectorEmulator({ index: { kind: "sparse" } });
  index = new Index({ url: emu.url, token: emu.token });
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  await index.reset({ all: true });
});

describe("sparse vectors through the official client", () => {
  it("upserts, fetches, ranges and updates sparse vectors (and never a dense one)", async () => {
    await populate();
    expect(await index.fetch(["id0", "id2", "nope"], { includeVectors: true, includeData: true })).toEqual([
      { id: "id0", sparseVector: { indices: [0, 1], values: [0.1, 0.2] } },
      { id: "id2", sparseVector: { indices: [2, 3], values: [0.3, 0.4] }, data: "data" },
      null,
    ]);
    const page = await index.range({ cursor: 0, limit: 2, includeVectors: true });
    expect(page.vectors.map((v) => v.sparseVector)).toEqual([
      { indices: [0, 1], values: [0.1, 0.2] },
      { indices: [1, 2], values: [0.2, 0.3] },
    ]);
    expect(page.nextCursor).not.toBe("");
    expect(await index.update({ id: "id1", sparseVector: { indices: [5, 9], values: [0.5, 0.9] } })).toEqual({ updated: 1 });
    expect(await index.fetch(["id1"], { includeVectors: true, includeMetadata: true })).toEqual([
      { id: "id1", sparseVector: { indices: [5, 9], values: [0.5, 0.9] }, metadata: { key: "value" } },
    ]);
    // The old dimensions no longer match id1; the new ones do.
    expect((await index.query({ sparseVector: { indices: [1], values: [1] }, topK: 5 })).map((r) => r.id)).toEqual(["id0"]);
    expect(await index.query({ sparseVector: { indices: [9], values: [2] }, topK: 5 })).toEqual([{ id: "id1", score: 1.8 }]);
  });

  it("scores by inner product over shared indices and leaves out records without overlap", async () => {
    await populate();
    const hits = await index.query({ sparseVector: { indices: [0, 1, 3], values: [0.1, 0.5, 0.1] }, topK: 5, includeMetadata: true });
    // id0: 0.1*0.1 + 0.5*0.2 = 0.11; id1: 0.5*0.2 = 0.1; id2: 0.1*0.4 = 0.04 (float32, as Upstash prints)
    expect(hits).toEqual([
      { id: "id0", score: 0.11 },
      { id: "id1", score: 0.1, metadata: { key: "value" } },
      { id: "id2", score: 0.04, metadata: { key: "value" } },
    ]);
    expect(await index.query({ sparseVector: { indices: [4, 77], values: [1, 1] }, topK: 5 })).toEqual([]);
    expect((await index.query({ sparseVector: { indices: [3], values: [1] }, topK: 5 })).map((r) => r.id)).toEqual(["id2"]);
  });

  it("weights query dimensions by IDF = ln((N - n + 0.5) / (n + 0.5) + 1), which changes the ranking", async () => {
    await index.upsert([
      { id: "common-high", sparseVector: { indices: [1], values: [0.9] } },
      { id: "rare", sparseVector: { indices: [2], values: [0.5] } },
      { id: "common-low", sparseVector: { indices: [1], values: [0.3] } },
      { id: "common-other", sparseVector: { indices: [1, 3], values: [0.3, 1] } },
    ]);
    const q = { sparseVector: { indices: [1, 2], values: [1, 1] }, topK: 10 };
    expect(await index.query(q)).toEqual([
      { id: "common-high", score: 0.9 },
      { id: "rare", score: 0.5 },
      { id: "common-low", score: 0.3 },
      { id: "common-other", score: 0.3 },
    ]);
    // N = 4. Index 1 is in 3 records: ln(1.5/3.5 + 1) = ln(10/7) = 0.3566749; index 2 in 1: ln(3.5/1.5 + 1) = ln(10/3) = 1.2039728.
    const weighted = await index.query({ ...q, weightingStrategy: WeightingStrategy.IDF });
    expect(weighted.map((r) => r.id)).toEqual(["rare", "common-high", "common-low", "common-other"]);
    const expected = [0.5 * 1.2039728, 0.9 * 0.3566749, 0.3 * 0.3566749, 0.3 * 0.3566749];
    weighted.forEach((r, i) => {
      expect(r.score).toBeCloseTo(expected[i] ?? Number.NaN, 6);
    });
  });

  it("gives the scores the vector-js tests expect from the live service (IDF, resumable and batch queries)", async () => {
    await populate();
    const { result, fetchNext, stop } = await index.resumableQuery({
      sparseVector: { indices: [0, 1], values: [0.1, 0.2] },
      topK: 1,
      includeVectors: true,
      weightingStrategy: WeightingStrategy.IDF,
      maxIdle: 3600,
    });
    expect(result).toEqual([{ id: "id0", score: 0.028_608_438, sparseVector: { indices: [0, 1], values: [0.1, 0.2] } }]);
    expect(await fetchNext(1)).toEqual([{ id: "id1", score: 0.018_800_145, sparseVector: { indices: [1, 2], values: [0.2, 0.3] } }]);
    await stop();
    const [many] = await index.queryMany([
      { sparseVector: { indices: [2, 3], values: [0.5, 0.5] }, topK: 1, weightingStrategy: WeightingStrategy.IDF },
    ]);
    expect(many).toEqual([{ id: "id2", score: 0.266_666_38 }]);
  });

  it("applies filters to sparse queries", async () => {
    await populate();
    const hits = await index.query({ sparseVector: { indices: [1, 2], values: [1, 1] }, topK: 5, filter: "key = 'value'" });
    expect(hits.map((r) => r.id)).toEqual(["id1", "id2"]);
    expect(await index.query({ sparseVector: { indices: [0], values: [1] }, topK: 5, filter: "key = 'value'" })).toEqual([]);
  });

  it("reports a sparse index in info: a sparseIndex block with the BM25 model, no denseIndex", async () => {
    await populate();
    const info = await index.info();
    expect(info).toMatchObject({ vectorCount: 3, dimension: 0, indexType: "SPARSE", sparseIndex: { embeddingModel: "BM25" } });
    expect(info.denseIndex).toBeUndefined();
  });
});

describe("BM25 text model on a sparse index", () => {
  it("embeds documents with Upstash's BM25 weights (k1 1.2, b 0.75, avg length 32) and queries by term presence", async () => {
    await index.upsert({ id: "fruit", data: "Apple apple banana" });
    const [rec] = await index.fetch(["fruit"], { includeVectors: true, includeData: true });
    // |D| = 3 terms; norm = 1.2 * (1 - 0.75 + 0.75 * 3/32) = 0.384375. apple f=2: 2*2.2/2.384375; banana f=1: 2.2/1.384375.
    const [a, b] = [termId("appl"), termId("banana")].sort((x, y) => x - y);
    const value = (id: number | undefined): number => (id === termId("appl") ? 4.4 / 2.384375 : 2.2 / 1.384375);
    expect(rec?.data).toBe("Apple apple banana");
    expect(rec?.sparseVector?.indices).toEqual([a, b]);
    rec?.sparseVector?.values.forEach((v, i) => {
      expect(v).toBeCloseTo(value(i === 0 ? a : b), 12);
    });
    const [hit] = await index.query({ data: "bananas and apples", topK: 1 });
    expect(hit?.score).toBeCloseTo(4.4 / 2.384375 + 2.2 / 1.384375, 6); // stop word "and" dropped, Porter stems plurals
  });

  it("finds Chinese and English memories by their words", async () => {
    await index.upsert([
      { id: "zh-name", data: "我叫小明，喜欢蓝色。" },
      { id: "zh-peanut", data: "我对花生过敏。" },
      { id: "zh-move", data: "我下个月要搬到上海工作。" },
      { id: "en-dog", data: "My dog is named Biscuit." },
      { id: "en-berlin", data: "I moved to Berlin last year for a new job." },
    ]);
    const top = async (data: string): Promise<string | undefined> =>
      (await index.query({ data, topK: 3, weightingStrategy: WeightingStrategy.IDF }))[0]?.id as string | undefined;
    expect(await top("用户对什么过敏？")).toBe("zh-peanut");
    expect(await top("小明喜欢什么颜色")).toBe("zh-name");
    expect(await top("用户要搬去上海吗")).toBe("zh-move");
    expect(await top("What is the name of the user's dog?")).toBe("en-dog");
    expect(await top("Which city did the user move to?")).toBe("en-berlin");
    expect(await index.query({ data: "完全无关的句子", topK: 3 })).toEqual([]); // no shared term: nothing comes back
    await expect(index.query({ data: "dog", topK: 1, queryMode: "DENSE" as never })).rejects.toThrow(/queryMode DENSE is not supported/);
  });
});

describe("bad sparse input", () => {
  it("answers Upstash-shaped errors and changes nothing", async () => {
    await index.upsert({ id: "keep", sparseVector: { indices: [1], values: [1] } });
    const cases: [string, string, number, RegExp][] = [
      ["/upsert", '{"id":"x","sparseVector":{"indices":[1,2],"values":[1]}}', 400, /same length, got 2 and 1/],
      ["/upsert", '{"id":"x","sparseVector":{"indices":[1,1],"values":[1,2]}}', 400, /unique, 1 appears more than once/],
      ["/upsert", '{"id":"x","sparseVector":{"indices":[-1],"values":[1]}}', 400, /indices must be integers between 0 and 2147483647/],
      ["/upsert", '{"id":"x","sparseVector":{"indices":[1.5],"values":[1]}}', 400, /indices must be integers/],
      ["/upsert", '{"id":"x","sparseVector":{"indices":[1],"values":[1e999]}}', 400, /values must be finite numbers/],
      ["/upsert", '{"id":"x","sparseVector":{"indices":[1],"values":["1"]}}', 400, /values must be finite numbers/],
      ["/upsert", '{"id":"x","sparseVector":[1,2]}', 400, /must be an object with indices and values arrays/],
      ["/upsert", '{"id":"x"}', 400, /sparseVector is required for id "x"/],
      ["/upsert", '{"id":"x","vector":[1,2]}', 422, /does not support dense vectors/],
      [
        "/upsert",
        '[{"id":"ok","sparseVector":{"indices":[3],"values":[1]}},{"id":"bad","sparseVector":{"indices":[3],"values":[]}}]',
        400,
        /same length/,
      ],
      ["/update", '{"id":"keep","sparseVector":{"indices":[2,2],"values":[1,1]}}', 400, /unique/],
      ["/query", '{"sparseVector":{"indices":[1],"values":[1,2]},"topK":1}', 400, /same length/],
      ["/query", '{"topK":1}', 400, /sparseVector is required/],
      ["/query", '{"sparseVector":{"indices":[1],"values":[1]},"topK":1,"weightingStrategy":"BM25"}', 400, /weightingStrategy must be IDF/],
      [
        "/query",
        '{"sparseVector":{"indices":[1],"values":[1]},"topK":1,"fusionAlgorithm":"MAX"}',
        400,
        /fusionAlgorithm must be RRF or DBSF/,
      ],
    ];
    const big = {
      id: "big",
      sparseVector: { indices: Array.from({ length: 1001 }, (_, i) => i), values: Array.from({ length: 1001 }, () => 1) },
    };
    cases.push(["/upsert", JSON.stringify(big), 400, /1001 non-zero entries, more than the limit of 1000/]);
    for (const [path, body, status, message] of cases) {
      const answer = await post(path, body);
      expect(answer.status, body).toBe(status);
      expect(answer.json).toMatchObject({ error: expect.stringMatching(message), status });
    }
    expect((await index.info()).vectorCount).toBe(1);
    expect(await index.fetch(["keep", "ok", "x"], { includeVectors: true })).toEqual([
      { id: "keep", sparseVector: { indices: [1], values: [1] } },
      null,
      null,
    ]);
  });
});
