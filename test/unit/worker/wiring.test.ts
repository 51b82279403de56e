import { describe, expect, it } from "vitest";
import { HeuristicFactExtractor } from "../../../src/llm/heuristic-extractor.ts";
import { OpenAIFactExtractor } from "../../../src/llm/openai-extractor.ts";
import { OpenAISummarizer } from "../../../src/llm/openai-summarizer.ts";
import { UpstreamUnavailable } from "../../../src/memory/errors.ts";
import { parseConfig } from "../../../src/worker/config/parse.ts";
import { adaptersFor, backupsFor } from "../../../src/worker/wiring.ts";

// The clients are built without a request: nothing here reaches a network.
const UPSTASH = {
  UPSTASH_REDIS_REST_URL: "https://redis.invalid",
  UPSTASH_REDIS_REST_TOKEN: "t",
  UPSTASH_VECTOR_REST_URL: "https://vector.invalid",
  UPSTASH_VECTOR_REST_TOKEN: "t",
};
const ref = { tenant: "acme", sessionId: "s1" };

describe("wiring the adapters", () => {
  it("without Redis every Redis store answers 503 not_configured, and the optional ones are off", async () => {
    const adapters = adaptersFor(parseConfig({}));
    expect(adapters.redis).toBeNull();
    expect(adapters.vector).toBeNull();
    const refused = await adapters.sessions.read(ref).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(UpstreamUnavailable);
    expect((refused as UpstreamUnavailable).reason).toBe("not_configured");
    await expect(adapters.working.getNotes(ref)).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect([adapters.facts, adapters.vectorCheck, adapters.rateLimiter, adapters.traces, adapters.metrics]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(adapters.deps.learningLocks).toBeNull();
  });

  it("with Redis and Vector every store is there; a rate limiter only when RATE_LIMIT is set", () => {
    const adapters = adaptersFor(parseConfig(UPSTASH));
    expect(adapters.redis).not.toBeNull();
    expect(adapters.facts).not.toBeNull();
    expect(adapters.vectorCheck).not.toBeNull();
    expect(adapters.traces).not.toBeNull();
    expect(adapters.rateLimiter).toBeNull();
    expect(adaptersFor(parseConfig({ ...UPSTASH, RATE_LIMIT: "10/60s" })).rateLimiter).not.toBeNull();
  });

  it("summaries are extractive without an LLM and the LLM's with one, the extractive one kept as fallback", () => {
    const offline = adaptersFor(parseConfig({}));
    expect(offline.summarizer).not.toBeInstanceOf(OpenAISummarizer);
    expect(offline.deps.chat).toBeNull();
    const online = adaptersFor(parseConfig({ OPENAI_API_KEY: "sk-x" }));
    expect(online.summarizer).toBeInstanceOf(OpenAISummarizer);
    expect(online.fallbackSummarizer).not.toBeInstanceOf(OpenAISummarizer);
    expect(online.deps.chat).not.toBeNull();
  });

  it("the learner follows FACT_EXTRACTION, with the offline rules behind an LLM learner", () => {
    expect(adaptersFor(parseConfig({ FACT_EXTRACTION: "off" })).deps.extractor).toBeNull();
    const heuristic = adaptersFor(parseConfig({ FACT_EXTRACTION: "heuristic" })).deps;
    expect(heuristic.extractor).toBeInstanceOf(HeuristicFactExtractor);
    expect(heuristic.fallbackExtractor).toBeNull();
    const llm = adaptersFor(parseConfig({ FACT_EXTRACTION: "llm", OPENAI_API_KEY: "sk-x" })).deps;
    expect(llm.extractor).toBeInstanceOf(OpenAIFactExtractor);
    expect(llm.fallbackExtractor).toBeInstanceOf(HeuristicFactExtractor);
  });

  it("builds the adapters once per configuration", () => {
    const config = parseConfig(UPSTASH);
    expect(adaptersFor(config)).toBe(adaptersFor(config));
    expect(adaptersFor(parseConfig(UPSTASH))).not.toBe(adaptersFor(config));
  });

  it("backups need the BACKUPS bucket binding", () => {
    const config = parseConfig(UPSTASH);
    const adapters = adaptersFor(config);
    expect(backupsFor({}, config, adapters)).toBeNull();
    const bucket = { get: async () => null, put: async () => null, list: async () => ({ objects: [] }), delete: async () => undefined };
    expect(backupsFor({ BACKUPS: bucket }, config, adapters)).not.toBeNull();
  });
});
