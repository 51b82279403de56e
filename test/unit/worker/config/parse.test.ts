import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../../src/memory/errors.ts";
import { loadConfig, parseConfig } from "../../../../src/worker/config/parse.ts";

const REDIS = { UPSTASH_REDIS_REST_URL: "https://redis.example", UPSTASH_REDIS_REST_TOKEN: "t" };

/** The problems `parseConfig` throws for `env` (none: []). */
function problemsOf(env: Record<string, unknown>): string[] {
  try {
    parseConfig(env);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
}

describe("parsing the Worker's configuration", () => {
  it("an Upstash endpoint is its URL and token together, or nothing", () => {
    expect(parseConfig(REDIS).redis).toEqual({ url: "https://redis.example", token: "t" });
    expect(parseConfig({}).redis).toBeNull();
    expect(problemsOf({ UPSTASH_VECTOR_REST_URL: "https://v.example" })).toEqual([
      "UPSTASH_VECTOR_REST_URL and UPSTASH_VECTOR_REST_TOKEN must be set together",
    ]);
    expect(problemsOf({ UPSTASH_REDIS_REST_URL: "redis://x", UPSTASH_REDIS_REST_TOKEN: "t" })).toEqual([
      "UPSTASH_REDIS_REST_URL is not an http(s) URL",
    ]);
  });

  it("an LLM is configured by a key or a base URL; a local server needs no key", () => {
    expect(parseConfig({}).llm).toBeNull();
    expect(parseConfig({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" }).llm).toMatchObject({
      apiKey: "not-needed",
      baseURL: "http://127.0.0.1:11434/v1",
    });
    expect(parseConfig({ OPENAI_API_KEY: "sk-x" }).llm?.apiKey).toBe("sk-x");
  });

  it("features that need an LLM are refused without one", () => {
    expect(problemsOf({ EMBEDDINGS: "openai" })).toEqual(["EMBEDDINGS=openai needs OPENAI_API_KEY or OPENAI_BASE_URL"]);
    expect(problemsOf({ FACT_EXTRACTION: "llm" })).toEqual(["FACT_EXTRACTION=llm needs OPENAI_API_KEY or OPENAI_BASE_URL"]);
  });

  it("Worker-side embeddings make recall dense whatever the index mode says", () => {
    expect(parseConfig({ EMBEDDINGS: "openai", OPENAI_API_KEY: "sk-x", VECTOR_INDEX: "hybrid" }).memory.retrieval).toBe("dense");
  });

  it("on/off switches and days reach the memory options", () => {
    const memory = parseConfig({ EPISODES: "off", EPISODE_TTL_DAYS: "2", RECALL_K: "7" }).memory;
    expect(memory.episodes).toBe(false);
    expect(memory.factPolicies.episode.ttlSeconds).toBe(2 * 86_400);
    expect(memory.recallK).toBe(7);
    expect(Object.isFrozen(memory)).toBe(true);
  });

  it("every problem is reported at once", () => {
    const problems = problemsOf({ MEMORY_WINDOW: "many", RATE_LIMIT: "fast", API_KEYS: "acme", EMBEDDINGS: "openai" });
    expect(problems).toHaveLength(4);
  });

  it("loadConfig parses one bindings object once", () => {
    const env = { ...REDIS };
    expect(loadConfig(env)).toBe(loadConfig(env));
    expect(loadConfig({ ...REDIS })).not.toBe(loadConfig(env));
    expect(() => loadConfig({ MEMORY_WINDOW: "many" })).toThrow(ConfigError);
  });
});
