/** The USE_LITE dense model's parts: routing by script, batching, lazy loading, config and snapshots. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Index, QueryMode } from "@upstash/vector";
import { describe, expect, it } from "vitest";
import { resolveVectorConfig } from "../../../tools/upstash-local/vector/config.ts";
import { vectorConfigFromEnv } from "../../../tools/upstash-local/vector/config-env.ts";
import { embedDense } from "../../../tools/upstash-local/vector/dense-model.ts";
import {
  clearEmbeddingCache,
  createVectorService,
  embeddingStats,
  embedText,
  SENTENCE_DIMENSION,
  sentenceModelState,
  sentenceModelStats,
  splitScripts,
} from "../../../tools/upstash-local/vector/index.ts";
import { clearSentenceCache, embedSentences, SENTENCE_BATCH } from "../../../tools/upstash-local/vector/sentence-model.ts";
import { startVectorEmulator } from "../../../tools/upstash-local/vector/standalone.ts";

/** Dense embeddings computed (cache misses) and texts the sentence model ran on while `work` runs. */
async function counted(work: () => Promise<unknown>): Promise<{ computed: number; modelTexts: number }> {
  const before = { dense: embeddingStats(), model: sentenceModelStats() };
  await work();
  return { computed: embeddingStats().computed - before.dense.computed, modelTexts: sentenceModelStats().texts - before.model.texts };
}

const norm = (v: Float64Array, from = 0, to = v.length): number => Math.sqrt(v.slice(from, to).reduce((s, x) => s + x * x, 0));
const dot = (a: Float64Array, b: Float64Array): number => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

// First in the file: the model is a per-process singleton and this file's module graph is fresh.
describe("lazy load", () => {
  const req = (path: string, body: unknown) => ({
    method: "POST",
    path,
    query: new URLSearchParams(),
    headers: { authorization: "Bearer t" },
    body: Buffer.from(JSON.stringify(body)),
  });

  it("without preload nothing loads until a text is embedded; info answers meanwhile; the first query loads it", async () => {
    const service = await createVectorService({ token: "t", index: { kind: "hybrid", denseModel: "USE_LITE" }, preloadModel: false });
    try {
      expect(sentenceModelState().status).toBe("idle");
      const info = await service.handler(req("/info", []));
      expect(JSON.parse(String(info.body)).result.denseIndex.embeddingModelStatus).toBe("idle");
      // A sparse-only query embeds no dense part: still nothing loaded.
      expect((await service.handler(req("/query-data", { data: "hello", topK: 1, queryMode: "SPARSE" }))).status).toBe(200);
      expect(sentenceModelState().status).toBe("idle");
      const res = await service.handler(req("/query-data", { data: "hello", topK: 1 }));
      expect(res.status).toBe(200);
      expect(sentenceModelState().status).toBe("ready");
    } finally {
      await service.close();
    }
  }, 120_000);

  it("loads once per process: a second service finds it ready and embeds without loading again", async () => {
    const service = await createVectorService({ token: "t", index: { kind: "dense", denseModel: "USE_LITE" } });
    try {
      expect(sentenceModelState().status).toBe("ready");
      const info = await service.handler(req("/info", []));
      expect(JSON.parse(String(info.body)).result.denseIndex.embeddingModelStatus).toBe("ready");
    } finally {
      await service.close();
    }
  });
});

describe("routing by script", () => {
  it("splits a text into its Latin-script and CJK parts, with the Latin share of its words", () => {
    expect(splitScripts("I live in Berlin")).toEqual({ latin: "I live in Berlin", cjk: "", latinShare: 1 });
    expect(splitScripts("我叫小明，喜欢蓝色")).toMatchObject({ latin: "", cjk: "我叫小明 喜欢蓝色", latinShare: 0 });
    const mixed = splitScripts("My supervisor 王老师 is strict");
    expect(mixed.latin).toBe("My supervisor is strict");
    expect(mixed.cjk).toBe("王老师");
    expect(mixed.latinShare).toBeCloseTo(4 / (4 + 3 * 0.6), 12);
    expect(splitScripts("?!")).toEqual({ latin: "", cjk: "", latinShare: 0 });
  });

  it("puts English in the first 512 values, CJK in the rest, each scaled by its share; mixed text is unit length", async () => {
    const [en, zh, mixed, empty] = await embedDense(
      "USE_LITE",
      ["I live in Berlin", "我叫小明，喜欢蓝色", "My supervisor 王老师 is strict", "..."],
      1024,
    );
    expect(norm(en!, 0, SENTENCE_DIMENSION)).toBeCloseTo(1, 9);
    expect(norm(en!, SENTENCE_DIMENSION)).toBe(0);
    expect(norm(zh!, 0, SENTENCE_DIMENSION)).toBe(0);
    expect(norm(zh!, SENTENCE_DIMENSION)).toBeCloseTo(1, 9);
    // The CJK part is the weighted hashing embedding of the CJK text.
    expect(Array.from(zh!.slice(SENTENCE_DIMENSION))).toEqual(Array.from(embedText("我叫小明 喜欢蓝色", 512, { stopFeatures: true })));
    const share = splitScripts("My supervisor 王老师 is strict").latinShare;
    expect(norm(mixed!, 0, SENTENCE_DIMENSION) ** 2).toBeCloseTo(share, 9);
    expect(norm(mixed!)).toBeCloseTo(1, 9);
    expect(norm(empty!)).toBe(0);
    // English and Chinese texts are orthogonal: neither can look similar to the other.
    expect(dot(en!, zh!)).toBe(0);
  });

  it("Chinese texts do not collapse to one vector", async () => {
    const [a, b, c] = await embedDense("USE_LITE", ["我叫小明，喜欢蓝色", "今天天气怎么样", "我住在上海浦东"], 1024);
    expect(dot(a!, b!)).toBeLessThan(0.5);
    expect(dot(b!, c!)).toBeLessThan(0.5);
  });

  it("is deterministic: the same text embeds to the same vector", async () => {
    const [a] = await embedDense("USE_LITE", ["What pet do I have?"], 1024);
    clearEmbeddingCache(); // computed again, not read from either cache
    clearSentenceCache();
    const [b] = await embedDense("USE_LITE", ["What pet do I have?"], 1024);
    expect(Array.from(a!)).toEqual(Array.from(b!));
  });
});

describe("batching", () => {
  it("texts asked for in the same tick share one model batch; repeats are embedded once", async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `Fact number ${i} about my garden and the weather`);
    const before = sentenceModelStats();
    const vectors = await embedDense("USE_LITE", [...texts, texts[0]!], 1024);
    const after = sentenceModelStats();
    expect(vectors).toHaveLength(41);
    expect(after.batches - before.batches).toBe(1);
    expect(after.texts - before.texts).toBe(40);
    expect(Array.from(vectors[40]!)).toEqual(Array.from(vectors[0]!));
  });

  it("a text embedded before comes from the cache, not the model", async () => {
    const text = "I keep bees on the roof of my building";
    const [first] = await embedDense("USE_LITE", [text], 1024);
    const before = { model: sentenceModelStats(), dense: embeddingStats() };
    const [again] = await embedDense("USE_LITE", [text], 1024);
    expect(sentenceModelStats().batches - before.model.batches).toBe(0);
    expect(embeddingStats().cached - before.dense.cached).toBe(1);
    expect(Array.from(again!)).toEqual(Array.from(first!));
    // Below the dense cache the sentence model keeps its own, by the text's Latin part: a mixed text
    // whose Latin part was embedded before costs the model nothing either.
    const mixed = await counted(() => embedDense("USE_LITE", [`${text} 上海`], 1024));
    expect(mixed).toEqual({ computed: 1, modelTexts: 0 });
  });

  it("a recall's batch of a new question reaches the model once per distinct wording (DENSE and SPARSE parts, repeats)", async () => {
    const emu = await startVectorEmulator({ index: { kind: "hybrid", denseModel: "USE_LITE" } });
    try {
      const index = new Index({ url: emu.url, token: emu.token, enableTelemetry: false });
      await index.upsert([{ id: "sister", data: "The user's sister Mia lives in Lisbon." }], { namespace: "u" });
      const wordings = ["Where does my sister live now?", "Where does the user's sister live now?", "Where does my sister live now?"];
      const batch = wordings.flatMap((data) => [
        { data, topK: 3, queryMode: QueryMode.DENSE },
        { data, topK: 3, queryMode: QueryMode.SPARSE },
      ]);
      expect(await counted(() => index.queryMany(batch, { namespace: "u" }))).toEqual({ computed: 2, modelTexts: 2 });
      // the same question again: nothing reaches the model
      expect(await counted(() => index.queryMany(batch, { namespace: "u" }))).toEqual({ computed: 0, modelTexts: 0 });
    } finally {
      await emu.close();
    }
  });

  it("a large batch is cut into model batches of at most SENTENCE_BATCH texts, shortest first", async () => {
    const texts = Array.from({ length: SENTENCE_BATCH + 10 }, (_, i) => `Batch text ${i}${" and more".repeat(i % 7)}`);
    const before = sentenceModelStats();
    const vectors = await embedDense("USE_LITE", texts, 1024);
    const after = sentenceModelStats();
    expect(after.batches - before.batches).toBe(2);
    expect(after.texts - before.texts).toBe(texts.length);
    // each text keeps its own vector whatever order the model saw them in
    clearSentenceCache();
    const [alone] = await embedSentences([texts[5]!]);
    expect(Array.from(vectors[5]!.slice(0, SENTENCE_DIMENSION)).every((v, j) => Math.abs(v - (alone![j] ?? 0)) < 1e-6)).toBe(true);
  });

  it("an upsert-data batch is one model call", async () => {
    const emu = await startVectorEmulator({ index: { kind: "hybrid", denseModel: "USE_LITE" } });
    try {
      const index = new Index({ url: emu.url, token: emu.token, enableTelemetry: false });
      const before = sentenceModelStats();
      await index.upsert(Array.from({ length: 25 }, (_, i) => ({ id: `r${i}`, data: `Record ${i}: I visited city number ${i}` })));
      expect(sentenceModelStats().batches - before.batches).toBe(1);
    } finally {
      await emu.close();
    }
  });
});

describe("configuration", () => {
  it("USE_LITE defaults to 1024 dimensions, needs at least 640, and is read from the environment", () => {
    expect(resolveVectorConfig({ kind: "hybrid", denseModel: "USE_LITE" }).dimension).toBe(1024);
    expect(resolveVectorConfig({ kind: "dense", denseModel: "USE_LITE" }).dimension).toBe(1024);
    expect(resolveVectorConfig({ kind: "dense", denseModel: "USE_LITE", dimension: 640 }).dimension).toBe(640);
    expect(() => resolveVectorConfig({ kind: "dense", denseModel: "USE_LITE", dimension: 384 })).toThrow(/at least 640/);
    expect(vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_DENSE_MODEL: "use_lite" })).toEqual({ denseModel: "USE_LITE" });
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_DENSE_MODEL: "bert" })).toThrow(/USE_LITE/);
    // Library callers (tests) keep the deterministic hashing default.
    expect(resolveVectorConfig({ kind: "hybrid" }).denseModel).toBe("HASHING_WEIGHTED");
  });

  it("a data file of another dense model is re-embedded with the configured one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vector-model-"));
    try {
      const hashing = await createVectorService({
        token: "t",
        dataDir: dir,
        index: { kind: "hybrid", denseModel: "HASHING_WEIGHTED" },
        persistDebounceMs: 0,
      });
      const put = await hashing.handler({
        method: "POST",
        path: "/upsert-data/n",
        query: new URLSearchParams(),
        headers: { authorization: "Bearer t" },
        body: Buffer.from(JSON.stringify([{ id: "dog", data: "I adopted a golden retriever" }])),
      });
      expect(put.status).toBe(200);
      await hashing.close();
      expect(JSON.parse(await readFile(join(dir, "vector.json"), "utf8"))).toMatchObject({ denseModel: "HASHING_WEIGHTED" });
      const sentence = await createVectorService({
        token: "t",
        dataDir: dir,
        index: { kind: "hybrid", denseModel: "USE_LITE" },
        persistDebounceMs: 0,
      });
      await sentence.close();
      const saved = JSON.parse(await readFile(join(dir, "vector.json"), "utf8")) as { denseModel: string };
      expect(saved.denseModel).toBe("USE_LITE");
      // A record without data cannot be re-embedded: the file is refused with what to change.
      await writeFile(
        join(dir, "vector.json"),
        JSON.stringify({
          ...saved,
          denseModel: "HASHING",
          namespaces: [
            {
              name: "",
              records: [
                {
                  id: "x",
                  vector: Buffer.from(new Float64Array(1024).buffer).toString("base64"),
                  sparseVector: { indices: [], values: [] },
                },
              ],
            },
          ],
        }),
      );
      await expect(createVectorService({ token: "t", dataDir: dir, index: { kind: "hybrid", denseModel: "USE_LITE" } })).rejects.toThrow(
        /UPSTASH_LOCAL_VECTOR_DENSE_MODEL=HASHING/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
