/** One embedding per distinct text: the emulator's dense models behind a bounded LRU by text, counted, not timed. */
import { Index, QueryMode } from "@upstash/vector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cachedEmbeddings,
  clearEmbeddingCache,
  EMBEDDING_CACHE_MAX_CHARS,
  EMBEDDING_CACHE_SIZE,
  embeddingStats,
} from "../../../tools/upstash-local/vector/embedding-cache.ts";
import { startVectorEmulator, type VectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";

let emu: VectorEmulator;
let index: Index;

beforeAll(async () => {
  emu = await startVectorEmulator({ index: { kind: "hybrid" } });
  index = new Index({ url: emu.url, token: emu.token, enableTelemetry: false });
  await index.upsert(
    [
      { id: "sister", data: "The user's sister Mia lives in Lisbon." },
      { id: "job", data: "I work as a nurse in Porto" },
    ],
    { namespace: "u" },
  );
});
afterAll(async () => {
  await emu.close();
});

/** Embeddings computed and served from the cache while `work` runs. */
async function counted(work: () => Promise<unknown>): Promise<{ computed: number; cached: number }> {
  const before = embeddingStats();
  await work();
  const after = embeddingStats();
  return { computed: after.computed - before.computed, cached: after.cached - before.cached };
}

/** A recall's batch as the fact store sends it: each wording as a DENSE and a SPARSE query. */
const recallBatch = (wordings: readonly string[]) =>
  wordings.flatMap((data) => [
    { data, topK: 5, queryMode: QueryMode.DENSE },
    { data, topK: 5, queryMode: QueryMode.SPARSE },
  ]);

describe("query embeddings through the API", () => {
  it("a wording asked as DENSE and SPARSE, and again in the same batch, is embedded once", async () => {
    const wordings = ["Where does my sister live?", "Where does the user's sister live?", "Where does my sister live?"];
    expect(await counted(() => index.queryMany(recallBatch(wordings), { namespace: "u" }))).toEqual({ computed: 2, cached: 1 });
  });

  it("the same question asked again is not embedded again, nor as a hybrid query", async () => {
    const wordings = ["What do I do for a living?", "What do the user do for a living?"];
    expect((await counted(() => index.queryMany(recallBatch(wordings), { namespace: "u" }))).computed).toBe(2);
    expect(await counted(() => index.queryMany(recallBatch(wordings), { namespace: "u" }))).toEqual({ computed: 0, cached: 2 });
    expect(await counted(() => index.query({ data: wordings[0]!, topK: 3 }, { namespace: "u" }))).toEqual({ computed: 0, cached: 1 });
  });

  it("a SPARSE query embeds nothing densely", async () => {
    const sparse = { data: "Which city is my sister in?", topK: 3, queryMode: QueryMode.SPARSE };
    expect(await counted(() => index.query(sparse, { namespace: "u" }))).toEqual({ computed: 0, cached: 0 });
  });

  it("a text stored with upsert-data is not embedded again when asked as a query", async () => {
    const text = "I keep bees on the roof of my building";
    expect((await counted(() => index.upsert({ id: "bees", data: text }, { namespace: "u" }))).computed).toBe(1);
    const found = await counted(async () => {
      const [top] = await index.query({ data: text, topK: 1, queryMode: QueryMode.DENSE }, { namespace: "u" });
      expect(top?.id).toBe("bees");
    });
    expect(found).toEqual({ computed: 0, cached: 1 });
  });

  it("concurrent requests for one new text share one embedding", async () => {
    const data = "Which herb do I hate in my food?";
    const result = await counted(() =>
      Promise.all([1, 2, 3].map(() => index.query({ data, topK: 3, queryMode: QueryMode.DENSE }, { namespace: "u" }))),
    );
    expect(result).toEqual({ computed: 1, cached: 2 });
  });

  it("a cached vector scores as a fresh one", async () => {
    const data = "Where does the user's sister live?";
    const first = await index.query({ data, topK: 2, queryMode: QueryMode.DENSE }, { namespace: "u" });
    clearEmbeddingCache();
    const fresh = await index.query({ data, topK: 2, queryMode: QueryMode.DENSE }, { namespace: "u" });
    expect(fresh).toEqual(first);
  });
});

describe("the cache", () => {
  const fake = () => {
    const calls: string[][] = [];
    const compute = (texts: string[]) => {
      calls.push(texts);
      return texts.map((t) => Float64Array.from([t.length, 1]));
    };
    return { calls, compute };
  };

  it("computes each distinct missing text once per call, in order, and answers every text", async () => {
    const { calls, compute } = fake();
    const out = await cachedEmbeddings("fake-order", ["aa", "b", "aa", "ccc"], compute);
    expect(calls).toEqual([["aa", "b", "ccc"]]);
    expect(out.map((v) => v[0])).toEqual([2, 1, 2, 3]);
    await cachedEmbeddings("fake-order", ["ccc", "dddd"], compute);
    expect(calls).toEqual([["aa", "b", "ccc"], ["dddd"]]);
  });

  it("keeps one cache per model: the same text under another model is computed", async () => {
    const { calls, compute } = fake();
    await cachedEmbeddings("fake-a", ["same"], compute);
    await cachedEmbeddings("fake-b", ["same"], compute);
    expect(calls).toEqual([["same"], ["same"]]);
  });

  it(`is bounded: ${EMBEDDING_CACHE_SIZE} texts per model, the least recently used dropped first`, async () => {
    const { calls, compute } = fake();
    const texts = Array.from({ length: EMBEDDING_CACHE_SIZE }, (_, i) => `text ${i}`);
    await cachedEmbeddings("fake-lru", texts, compute);
    await cachedEmbeddings("fake-lru", ["text 0"], compute); // used again: now the most recent
    await cachedEmbeddings("fake-lru", ["one more"], compute); // drops "text 1", the oldest
    calls.length = 0;
    await cachedEmbeddings("fake-lru", ["text 0", "text 2", `text ${EMBEDDING_CACHE_SIZE - 1}`], compute);
    expect(calls).toEqual([]);
    await cachedEmbeddings("fake-lru", ["text 1"], compute);
    expect(calls).toEqual([["text 1"]]);
  });

  it("does not keep texts longer than its limit", async () => {
    const { calls, compute } = fake();
    const long = "x".repeat(EMBEDDING_CACHE_MAX_CHARS + 1);
    await cachedEmbeddings("fake-long", [long], compute);
    await cachedEmbeddings("fake-long", [long], compute);
    expect(calls).toHaveLength(2);
  });

  it("forgets a failed embedding, so the next request computes it again", async () => {
    let fail = true;
    const compute = (texts: string[]) => {
      if (fail) throw new Error("model down");
      return texts.map(() => Float64Array.from([1]));
    };
    await expect(cachedEmbeddings("fake-fail", ["t"], compute)).rejects.toThrow(/model down/);
    fail = false;
    const before = embeddingStats().computed;
    await expect(cachedEmbeddings("fake-fail", ["t"], compute)).resolves.toHaveLength(1);
    expect(embeddingStats().computed - before).toBe(1);
  });

  it("answers copies: a caller changing its vector changes nothing cached", async () => {
    const { compute } = fake();
    const [a] = await cachedEmbeddings("fake-copy", ["abc"], compute);
    a!.fill(0);
    const [b] = await cachedEmbeddings("fake-copy", ["abc"], compute);
    expect(Array.from(b!)).toEqual([3, 1]);
  });
});
