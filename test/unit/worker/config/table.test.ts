import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_MEMORY_OPTIONS, OPTION_BOUNDS } from "../../../../src/memory/options.ts";
import { ConfigError, parseConfig } from "../../../../src/worker/config/parse.ts";
import { CONFIG_VARS } from "../../../../src/worker/config/table.ts";
import { README_PATH, withConfigTable } from "../../../../scripts/docs-config.ts";

describe("the configuration table", () => {
  it("is what the README shows (npm run docs:config regenerates it)", () => {
    const readme = readFileSync(README_PATH, "utf8");
    expect(withConfigTable(readme)).toBe(readme);
  });

  it("parses to the documented memory defaults when nothing is set", () => {
    const config = parseConfig({});
    expect(config.memory).toEqual(DEFAULT_MEMORY_OPTIONS);
    expect(config).toMatchObject({ upstreamTimeoutMs: 5000, notesTtlSeconds: 86_400, tokenizer: "cl100k_base", cleanupBatch: 2000 });
    expect(config.limits).toEqual({ maxBodyBytes: 1_048_576, maxMessagesPerRequest: 100, maxMessageChars: 32_000 });
    expect(config.llm).toBeNull();
    expect(config.apiKeys).toEqual([]);
  });

  it("takes its bounds from the options the sessions share", () => {
    const { min, max } = OPTION_BOUNDS.maxTokens;
    expect(parseConfig({ MEMORY_MAX_TOKENS: String(min) }).memory.maxTokens).toBe(min);
    expect(() => parseConfig({ MEMORY_MAX_TOKENS: String(max + 1) })).toThrow(`MEMORY_MAX_TOKENS must be an integer from ${min} to ${max}`);
  });

  it("lists every problem at once", () => {
    try {
      parseConfig({ EMBEDDINGS: "magic", MEMORY_KEEP: "-1", BUDGET_SHARES: "facts=0.9", API_KEYS: "nokey", UPSTASH_REDIS_REST_URL: "x" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).toHaveLength(5);
      expect(problems.join("\n")).toMatch(/EMBEDDINGS must be one of index, openai/);
      expect(problems.join("\n")).toMatch(/BUDGET_SHARES must sum to at most 1/);
    }
  });

  it("names every variable once, each with a description", () => {
    for (const [key, v] of Object.entries(CONFIG_VARS)) {
      expect(v.name).toBe(key);
      expect(v.description.length).toBeGreaterThan(10);
    }
  });
});
