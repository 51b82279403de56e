import { parseApiKeys, type ApiKeyEntry } from "./http/api-keys.ts";
import { memoryOptionsFromEnv } from "./config-memory.ts";
import type { MemoryOptions } from "./memory/options.ts";
import { readEnum, readInt, readString, type EnvReader } from "./config-read.ts";

/** Where an Upstash REST service lives. */
export interface RestEndpoint {
  url: string;
  token: string;
}

export interface LlmConfig {
  apiKey: string;
  baseURL: string | undefined;
  model: string;
  timeoutMs: number;
}

/** The Worker's configuration, validated once per set of bindings. */
export interface Config {
  apiKeys: ApiKeyEntry[];
  redis: RestEndpoint | null;
  vector: RestEndpoint | null;
  upstreamTimeoutMs: number;
  /** `null` when no LLM is configured: offline fallbacks are used. */
  llm: LlmConfig | null;
  embeddings: "index" | "openai";
  embeddingModel: string;
  factExtraction: "off" | "heuristic" | "llm";
  memory: MemoryOptions;
  notesTtlSeconds: number;
  tokenizer: "cl100k_base" | "o200k_base";
  limits: { maxBodyBytes: number; maxMessagesPerRequest: number; maxMessageChars: number };
  cleanupBatch: number;
}

/** Raised when bindings hold bad values; every problem is listed so one fix round is enough. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

const cache = new WeakMap<object, Config>();

/** Parses and caches the configuration of one bindings object. Throws {@link ConfigError}. */
export function loadConfig(env: object): Config {
  const cached = cache.get(env);
  if (cached) return cached;
  const config = parseConfig(env as Record<string, unknown>);
  cache.set(env, config);
  return config;
}

export function parseConfig(env: Record<string, unknown>): Config {
  const problems: string[] = [];
  const read: EnvReader = { env, problems };
  const endpoint = (prefix: "REDIS" | "VECTOR"): RestEndpoint | null => {
    const url = readString(read, `UPSTASH_${prefix}_REST_URL`);
    const token = readString(read, `UPSTASH_${prefix}_REST_TOKEN`);
    if (!url && !token) return null;
    if (!url || !token) {
      problems.push(`UPSTASH_${prefix}_REST_URL and UPSTASH_${prefix}_REST_TOKEN must be set together`);
      return null;
    }
    if (!/^https?:\/\/[^\s#$./?].\S*$/.test(url)) problems.push(`UPSTASH_${prefix}_REST_URL is not an http(s) URL`);
    return { url, token };
  };
  const apiKey = readString(read, "OPENAI_API_KEY");
  const baseURL = readString(read, "OPENAI_BASE_URL");
  const config: Config = {
    apiKeys: parseApiKeys(readString(read, "API_KEYS") ?? "", problems),
    redis: endpoint("REDIS"),
    vector: endpoint("VECTOR"),
    upstreamTimeoutMs: readInt(read, "UPSTREAM_TIMEOUT_MS", 5000, 100, 60_000),
    llm:
      apiKey || baseURL
        ? {
            // Local OpenAI-compatible servers often need no key; the SDK still wants one.
            apiKey: apiKey ?? "not-needed",
            baseURL,
            model: readString(read, "OPENAI_MODEL") ?? "gpt-4o-mini",
            timeoutMs: readInt(read, "OPENAI_TIMEOUT_MS", 15_000, 100, 120_000),
          }
        : null,
    embeddings: readEnum(read, "EMBEDDINGS", ["index", "openai"], "index"),
    embeddingModel: readString(read, "OPENAI_EMBEDDING_MODEL") ?? "text-embedding-3-small",
    factExtraction: readEnum(read, "FACT_EXTRACTION", ["off", "heuristic", "llm"], "heuristic"),
    memory: memoryOptionsFromEnv(read),
    notesTtlSeconds: readInt(read, "NOTES_TTL_SECONDS", 86_400, 1, 31_536_000),
    tokenizer: readEnum(read, "TOKENIZER", ["cl100k_base", "o200k_base"], "cl100k_base"),
    limits: {
      maxBodyBytes: readInt(read, "MAX_BODY_BYTES", 1_048_576, 1024, 10_485_760),
      maxMessagesPerRequest: readInt(read, "MAX_MESSAGES_PER_REQUEST", 100, 1, 1000),
      maxMessageChars: readInt(read, "MAX_MESSAGE_CHARS", 32_000, 1, 1_000_000),
    },
    cleanupBatch: readInt(read, "CLEANUP_BATCH", 2000, 10, 100_000),
  };
  if (config.embeddings === "openai" && !config.llm) problems.push("EMBEDDINGS=openai needs OPENAI_API_KEY or OPENAI_BASE_URL");
  if (config.factExtraction === "llm" && !config.llm) problems.push("FACT_EXTRACTION=llm needs OPENAI_API_KEY or OPENAI_BASE_URL");
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
