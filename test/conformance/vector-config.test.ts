import { describe, expect, it } from "vitest";
import { resolveVectorConfig, vectorConfigFromEnv } from "../../tools/upstash-local/vector/config.ts";
import { createVectorService } from "../../tools/upstash-local/vector/index.ts";

describe("vector index config", () => {
  it("defaults to 384 dimensions, COSINE, embedding on", () => {
    expect(resolveVectorConfig()).toEqual({ dimension: 384, similarity: "COSINE", embedding: true });
    expect(resolveVectorConfig({ dimension: 3072, similarity: "DOT_PRODUCT", embedding: false })).toEqual({
      dimension: 3072,
      similarity: "DOT_PRODUCT",
      embedding: false,
    });
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
        UPSTASH_LOCAL_VECTOR_DIMENSION: "1024",
        UPSTASH_LOCAL_VECTOR_SIMILARITY: "euclidean",
        UPSTASH_LOCAL_VECTOR_EMBEDDING: "off",
      }),
    ).toEqual({ dimension: 1024, similarity: "EUCLIDEAN", embedding: false });
    expect(vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_EMBEDDING: "ON" })).toEqual({ embedding: true });
    expect(vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_DIMENSION: "" })).toEqual({});
  });

  it("names the variable when an environment value is invalid", () => {
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_DIMENSION: "12abc" })).toThrow(/UPSTASH_LOCAL_VECTOR_DIMENSION/);
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_DIMENSION: "4096" })).toThrow(/UPSTASH_LOCAL_VECTOR_DIMENSION/);
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_SIMILARITY: "MANHATTAN" })).toThrow(/UPSTASH_LOCAL_VECTOR_SIMILARITY/);
    expect(() => vectorConfigFromEnv({ UPSTASH_LOCAL_VECTOR_EMBEDDING: "maybe" })).toThrow(/UPSTASH_LOCAL_VECTOR_EMBEDDING/);
  });
});
