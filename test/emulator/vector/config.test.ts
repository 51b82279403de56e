import { describe, expect, it } from "vitest";
import { DEFAULT_BM25, resolveVectorConfig } from "../../../tools/upstash-local/vector/config.ts";
import { vectorConfigFromEnv } from "../../../tools/upstash-local/vector/config-env.ts";
import { createVectorService } from "../../../tools/upstash-local/vector/index.ts";

describe("vector index config", () => {
  it("defaults to a hybrid index: 1024-dim COSINE dense part, BM25 sparse part, embedding on", () => {
    expect(resolveVectorConfig()).toEqual({
      kind: "hybrid",
      dimension: 1024,
      similarity: "COSINE",
      embedding: true,
      denseModel: "HASHING_WEIGHTED",
      bm25: { k1: 1.2, b: 0.75, avgDocLength: 32, cjk: "unigrams+bigrams", words: "porter", stopWords: true },
    });
  });

  it("keeps the original dense defaults for a dense index, and honours a configured dimension", () => {
    expect(resolveVectorConfig({ kind: "dense" })).toMatchObject({
      kind: "dense",
      dimension: 384,
      similarity: "COSINE",
      embedding: true,
      denseModel: "HASHING",
    });
    expect(resolveVectorConfig({ kind: "dense", dimension: 3072, similarity: "DOT_PRODUCT", embedding: false })).toMatchObject({
      dimension: 3072,
      similarity: "DOT_PRODUCT",
      embedding: false,
    });
    expect(resolveVectorConfig({ kind: "hybrid", dimension: 384 }).dimension).toBe(384);
  });

  it("gives a sparse index no dense part, whatever dimension is set", () => {
    expect(resolveVectorConfig({ kind: "sparse", dimension: 384 })).toMatchObject({ kind: "sparse", dimension: 0 });
  });

  it("takes BM25 settings one by one and validates them", () => {
    expect(resolveVectorConfig({ bm25: { cjk: "segmenter" } }).bm25).toEqual({ ...DEFAULT_BM25, cjk: "segmenter" });
    expect(() => resolveVectorConfig({ bm25: { b: 2 } })).toThrow(/bm25.b/);
    expect(() => resolveVectorConfig({ bm25: { avgDocLength: 0 } })).toThrow(/avgDocLength/);
    expect(() => resolveVectorConfig({ bm25: { words: "snowball" as "plain" } })).toThrow(/bm25.words/);
    expect(() => resolveVectorConfig({ kind: "quantum" as "dense" })).toThrow(/dense, sparse, hybrid/);
  });

  it("rejects dimensions above 3072 or below 1 at config time", async () => {
    expect(() => resolveVectorConfig({ dimension: 3073 })).toThrow(/between 1 and 3072/);
    expect(() => resolveVectorConfig({ dimension: 0 })).toThrow(/between 1 and 3072/);
    expect(() => resolveVectorConfig({ dimension: 1.5 })).toThrow(/between 1 and 3072/);
    await expect(createVectorService({ token: "t", index: { dimension: 5000 } })).rejects.toThrow(/3072/);
  });

  it("reads overrides from the environment", () => {
    expect(vectorConfigFromEnv({})).toEqual({});
    expect(
      vectorConfigFromEnv({
        UPSTASH_LOCAL_VECTOR_INDEX: "Dense",
        UPSTASH_LOCAL_VECTOR_DIMENSION: "1024",
        UPSTASH_LOCAL_VECTOR_SIMILARITY: "euclidean",
        UPSTASH_LOCAL_VECTOR_EMBEDDING: "off",
        UPSTASH_LOCAL_VECTOR_DENSE_MODEL: "hashing_weighted",
        UPSTASH_LOCAL_VECTOR_CJK_TERMS: "bigrams",
        UPSTASH_LOCAL_VECTOR_WORD_TERMS: "porter",
      }),
    ).toEqual({
      kind: "dense",
      dimension: 1024,
      similarity: "EUCLIDEAN",
      embedding: false,
      denseModel: "HASHING_WEIGHTED",
      bm25: { cjk: "bigrams", words: "porter" },
    });
    expect(vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_EMBEDDING: "ON" })).toEqual({ embedding: true });
    expect(vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_DIMENSION: "", UPSTASH_LOCAL_VECTOR_INDEX: " " })).toEqual({});
  });

  it("names the variable when an environment value is invalid", () => {
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_INDEX: "vector" })).toThrow(/UPSTASH_LOCAL_VECTOR_INDEX/);
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_DIMENSION: "12abc" })).toThrow(/UPSTASH_LOCAL_VECTOR_DIMENSION/);
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_DIMENSION: "4096" })).toThrow(/UPSTASH_LOCAL_VECTOR_DIMENSION/);
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_SIMILARITY: "MANHATTAN" })).toThrow(/UPSTASH_LOCAL_VECTOR_SIMILARITY/);
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_EMBEDDING: "maybe" })).toThrow(/UPSTASH_LOCAL_VECTOR_EMBEDDING/);
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_DENSE_MODEL: "BGE_M3" })).toThrow(/UPSTASH_LOCAL_VECTOR_DENSE_MODEL/);
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_CJK_TERMS: "jieba" })).toThrow(/UPSTASH_LOCAL_VECTOR_CJK_TERMS/);
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_WORD_TERMS: "snowball" })).toThrow(/UPSTASH_LOCAL_VECTOR_WORD_TERMS/);
  });
});
