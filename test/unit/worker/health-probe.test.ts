import { describe, expect, it } from "vitest";
import { VectorIndexCheck, type IndexInfo } from "../../../src/stores/vector-index-check.ts";
import { parseConfig } from "../../../src/worker/config/parse.ts";
import { probeHealth } from "../../../src/worker/health-probe.ts";
import type { Adapters } from "../../../src/worker/wiring.ts";

const HYBRID: IndexInfo = {
  dimension: 1024,
  denseIndex: { dimension: 1024, embeddingModel: "BGE_M3" },
  sparseIndex: { embeddingModel: "BM25" },
};
const SPARSE: IndexInfo = { dimension: 0, sparseIndex: { embeddingModel: "BM25" } };
let indexes = 0;

/**
 * The parts of the adapters the probe uses: Redis's ping, Vector's info and the index check. A
 * fresh index name per call, since the check remembers its verdict per index for the isolate.
 */
function adapters(o: { ping?: () => Promise<unknown>; info?: () => Promise<IndexInfo>; noRedis?: boolean; noVector?: boolean }): Adapters {
  const info = o.info ?? (() => Promise.resolve(HYBRID));
  const vectorCheck = new VectorIndexCheck({
    index: `health-probe-${++indexes}`,
    expected: { retrieval: "hybrid", embeddings: "index", embeddingModel: "", embeddingDimensions: undefined },
    info,
  });
  const partial = {
    redis: o.noRedis ? null : { ping: o.ping ?? (() => Promise.resolve("PONG")) },
    vector: o.noVector ? null : { info },
    vectorCheck: o.noVector ? null : vectorCheck,
  };
  return partial as unknown as Adapters;
}

const config = parseConfig({});

describe("the health probe", () => {
  it("ok when Redis answers and the index fits", async () => {
    expect(await probeHealth(config, adapters({}), true)).toEqual({
      ok: true,
      redis: "ok",
      vector: "ok",
      llm: "not_configured",
      backups: "configured",
    });
  });

  it("names the upstream that is down, with its error cut to 200 characters", async () => {
    const health = await probeHealth(config, adapters({ ping: () => Promise.reject(new Error("x".repeat(300))) }), false);
    expect(health).toMatchObject({ ok: false, redis: "down", vector: "ok", backups: "off" });
    expect(health.errors?.redis).toHaveLength(200);
    expect(health.errors).not.toHaveProperty("vector");
  });

  it("an index that does not fit the configuration is misconfigured, with what to set", async () => {
    const health = await probeHealth(config, adapters({ info: () => Promise.resolve(SPARSE) }), false);
    expect(health).toMatchObject({ ok: false, redis: "ok", vector: "misconfigured" });
    expect(health.errors?.vector).toMatch(/VECTOR_INDEX/);
  });

  it("an upstream that is not configured is reported so, and the service is not ok", async () => {
    const health = await probeHealth(config, adapters({ noRedis: true, noVector: true }), false);
    expect(health).toEqual({ ok: false, redis: "not_configured", vector: "not_configured", llm: "not_configured", backups: "off" });
  });

  it("reports a configured LLM", async () => {
    const withLlm = parseConfig({ OPENAI_API_KEY: "sk-x" });
    expect((await probeHealth(withLlm, adapters({}), false)).llm).toBe("configured");
  });
});
