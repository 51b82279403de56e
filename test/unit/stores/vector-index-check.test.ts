import { describe, expect, it } from "vitest";
import { UpstreamUnavailable } from "../../../src/memory/errors.ts";
import { indexMismatch, VectorIndexCheck, type IndexExpectation, type IndexInfo } from "../../../src/stores/vector-index-check.ts";

const DENSE: IndexInfo = { dimension: 1024, denseIndex: { dimension: 1024, embeddingModel: "BGE_M3" } };
const HYBRID: IndexInfo = { ...DENSE, sparseIndex: { embeddingModel: "BM25" } };
const SPARSE: IndexInfo = { dimension: 0, sparseIndex: { embeddingModel: "BM25" } };
const PLAIN_DENSE: IndexInfo = { dimension: 1536, denseIndex: { dimension: 1536, embeddingModel: "" } };

const byIndex = (retrieval: IndexExpectation["retrieval"]): IndexExpectation => ({
  retrieval,
  embeddings: "index",
  embeddingModel: "text-embedding-3-small",
  embeddingDimensions: undefined,
});
const byWorker = (embeddingDimensions?: number, embeddingModel = "text-embedding-3-small"): IndexExpectation => ({
  retrieval: "dense",
  embeddings: "openai",
  embeddingModel,
  embeddingDimensions,
});

describe("indexMismatch", () => {
  it("accepts an index that fits", () => {
    expect(indexMismatch(HYBRID, byIndex("hybrid"))).toBeNull();
    expect(indexMismatch(DENSE, byIndex("dense"))).toBeNull();
    expect(indexMismatch(SPARSE, byIndex("sparse"))).toBeNull();
    expect(indexMismatch(PLAIN_DENSE, byWorker())).toBeNull();
    expect(indexMismatch(DENSE, byWorker(1024))).toBeNull();
    // an unknown model without a dimension: nothing to compare
    expect(indexMismatch(DENSE, byWorker(undefined, "my-own-model"))).toBeNull();
  });

  it("names VECTOR_INDEX for a kind that differs", () => {
    expect(indexMismatch(DENSE, byIndex("hybrid"))).toBe("VECTOR_INDEX=hybrid but the index is DENSE: set VECTOR_INDEX=dense");
    expect(indexMismatch(HYBRID, byIndex("dense"))).toBe("VECTOR_INDEX=dense but the index is HYBRID: set VECTOR_INDEX=hybrid");
    expect(indexMismatch(SPARSE, byIndex("hybrid"))).toBe("VECTOR_INDEX=hybrid but the index is SPARSE: set VECTOR_INDEX=sparse");
    // the index's own indexType wins when it sends one
    expect(indexMismatch({ ...DENSE, indexType: "HYBRID" } as IndexInfo, byIndex("dense"))).toMatch(/the index is HYBRID/);
  });

  it("names EMBEDDINGS for an index without the model it needs, and the dimension for the Worker's vectors", () => {
    expect(indexMismatch(PLAIN_DENSE, byIndex("dense"))).toMatch(/^EMBEDDINGS=index but the index has no dense embedding model/);
    expect(indexMismatch({ ...HYBRID, sparseIndex: { embeddingModel: "" } }, byIndex("hybrid"))).toMatch(/no sparse embedding model/);
    expect(indexMismatch(HYBRID, byWorker(1024))).toMatch(/^EMBEDDINGS=openai stores dense vectors only, but the index is HYBRID/);
    expect(indexMismatch(DENSE, byWorker(768))).toBe(
      "the index has dimension 1024 but OPENAI_EMBEDDING_DIMENSIONS=768: set OPENAI_EMBEDDING_DIMENSIONS=1024, or use an index of dimension 768",
    );
    expect(indexMismatch(DENSE, byWorker(undefined, "text-embedding-3-large"))).toMatch(
      /OPENAI_EMBEDDING_MODEL=text-embedding-3-large \(3072 dimensions\)/,
    );
  });
});

describe("VectorIndexCheck", () => {
  const unique = () => `https://index-${crypto.randomUUID()}.test`;

  it("asks the index once and remembers a fit", async () => {
    let calls = 0;
    const check = new VectorIndexCheck({
      index: unique(),
      expected: byIndex("hybrid"),
      info: async () => {
        calls++;
        return HYBRID;
      },
    });
    await Promise.all([check.verify(), check.verify()]);
    await check.verify();
    expect(calls).toBe(1);
  });

  it("refuses with a 503-kind error naming the variable, and asks again only after a minute", async () => {
    let calls = 0;
    let now = 0;
    const check = new VectorIndexCheck({
      index: unique(),
      expected: byIndex("hybrid"),
      info: async () => {
        calls++;
        return DENSE;
      },
      now: () => now,
    });
    const err = await check.verify().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UpstreamUnavailable);
    expect(err).toMatchObject({ upstream: "vector", reason: "not_configured", message: expect.stringContaining("set VECTOR_INDEX=dense") });
    await expect(check.verify()).rejects.toThrow(/VECTOR_INDEX/);
    expect(calls).toBe(1);
    now = 61_000;
    await expect(check.verify()).rejects.toThrow(/VECTOR_INDEX/);
    expect(calls).toBe(2);
  });

  it("does not remember an outage", async () => {
    let calls = 0;
    const check = new VectorIndexCheck({
      index: unique(),
      expected: byIndex("dense"),
      info: async () => {
        calls += 1;
        if (calls === 1) throw new Error("timeout");
        return DENSE;
      },
    });
    await expect(check.verify()).rejects.toThrow("timeout");
    await check.verify();
    expect(calls).toBe(2);
  });
});
