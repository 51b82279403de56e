/** @module The Worker's configuration: its shape, and its parsing from the bindings (cached per bindings object). */
import { bundledEncoding } from "../../llm/tokenizer.ts";
import { ConfigError } from "../../memory/errors.ts";
import { DEFAULT_MEMORY_OPTIONS, type MemoryOptions } from "../../memory/options.ts";
import type { SealingKey } from "../../stores/sealed/cipher.ts";
import type { ApiKeyEntry, RateLimitSetting } from "./formats.ts";
import { CONFIG_VARS, type ConfigValues, type ConfigVarName } from "./table.ts";
import { rawValue } from "./vars.ts";

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

/** Limits every write path enforces. */
export interface InputLimits {
  maxBodyBytes: number;
  maxMessagesPerRequest: number;
  maxMessageChars: number;
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
  /** Vector size asked of the embedding model; undefined: its own. */
  embeddingDimensions: number | undefined;
  factExtraction: "off" | "heuristic" | "llm";
  memory: MemoryOptions;
  notesTtlSeconds: number;
  tokenizer: "cl100k_base" | "o200k_base";
  limits: InputLimits;
  cleanupBatch: number;
  /** How long traces are kept, seconds; 0 = tracing off. */
  traceTtlSeconds: number;
  /** Origins allowed by CORS; empty: no CORS. */
  corsOrigins: string[];
  /** Signs user tokens; undefined: `POST /v1/tokens` is off and no token is accepted. */
  tokenSecret: string | undefined;
  /** Null: no rate limit. */
  rateLimit: RateLimitSetting | null;
  auditMaxEntries: number;
  /** Sealing keys, newest first; empty: stored in clear. */
  encryptionKeys: SealingKey[];
  /** Seal a fact's client metadata too (see SEAL_FACT_METADATA). */
  sealFactMetadata: boolean;
  /** Fact snapshots (when the `BACKUPS` bucket is bound). */
  backups: { retention: number; intervalSeconds: number };
}

/** Thrown by {@link loadConfig} and {@link parseConfig}; declared with the service's other errors. */
export { ConfigError };

const cache = new WeakMap<object, Config>();

/** Parses and caches the configuration of one bindings object. Throws {@link ConfigError}. */
export function loadConfig(env: object): Config {
  const cached = cache.get(env);
  if (cached) return cached;
  const config = parseConfig(env as Record<string, unknown>);
  cache.set(env, config);
  return config;
}

/** Reads every variable of the table; problems are collected, not thrown one by one. */
function readValues(env: Record<string, unknown>, problems: string[]): ConfigValues {
  const values: Partial<Record<ConfigVarName, unknown>> = {};
  for (const name of Object.keys(CONFIG_VARS) as ConfigVarName[]) {
    values[name] = CONFIG_VARS[name].parse(rawValue(env, name, problems), problems);
  }
  return values as ConfigValues;
}

function endpoint(v: ConfigValues, prefix: "REDIS" | "VECTOR", problems: string[]): RestEndpoint | null {
  const url = v[`UPSTASH_${prefix}_REST_URL`];
  const token = v[`UPSTASH_${prefix}_REST_TOKEN`];
  if (!url && !token) return null;
  if (!url || !token) {
    problems.push(`UPSTASH_${prefix}_REST_URL and UPSTASH_${prefix}_REST_TOKEN must be set together`);
    return null;
  }
  if (!/^https?:\/\/[^\s#$./?].\S*$/.test(url)) problems.push(`UPSTASH_${prefix}_REST_URL is not an http(s) URL`);
  return { url, token };
}

export function parseConfig(env: Record<string, unknown>): Config {
  const problems: string[] = [];
  const v = readValues(env, problems);
  const llmConfigured = v.OPENAI_API_KEY !== undefined || v.OPENAI_BASE_URL !== undefined;
  const config: Config = {
    apiKeys: v.API_KEYS,
    redis: endpoint(v, "REDIS", problems),
    vector: endpoint(v, "VECTOR", problems),
    upstreamTimeoutMs: v.UPSTREAM_TIMEOUT_MS,
    // Local OpenAI-compatible servers often need no key; the SDK still wants one.
    llm: llmConfigured
      ? { apiKey: v.OPENAI_API_KEY ?? "not-needed", baseURL: v.OPENAI_BASE_URL, model: v.OPENAI_MODEL, timeoutMs: v.OPENAI_TIMEOUT_MS }
      : null,
    embeddings: v.EMBEDDINGS,
    embeddingModel: v.OPENAI_EMBEDDING_MODEL,
    embeddingDimensions: v.OPENAI_EMBEDDING_DIMENSIONS,
    factExtraction: v.FACT_EXTRACTION,
    memory: memoryOptions(v),
    notesTtlSeconds: v.NOTES_TTL_SECONDS,
    tokenizer: v.TOKENIZER,
    limits: { maxBodyBytes: v.MAX_BODY_BYTES, maxMessagesPerRequest: v.MAX_MESSAGES_PER_REQUEST, maxMessageChars: v.MAX_MESSAGE_CHARS },
    cleanupBatch: v.CLEANUP_BATCH,
    traceTtlSeconds: v.TRACE_TTL_SECONDS,
    corsOrigins: v.CORS_ORIGINS,
    tokenSecret: v.TOKEN_SECRET,
    rateLimit: v.RATE_LIMIT,
    auditMaxEntries: v.AUDIT_MAX_ENTRIES,
    encryptionKeys: v.MEMORY_ENCRYPTION_KEYS,
    sealFactMetadata: v.SEAL_FACT_METADATA === "on",
    backups: { retention: v.BACKUP_RETENTION, intervalSeconds: v.BACKUP_INTERVAL_SECONDS },
  };
  if (config.embeddings === "openai" && !config.llm) problems.push("EMBEDDINGS=openai needs OPENAI_API_KEY or OPENAI_BASE_URL");
  if (config.factExtraction === "llm" && !config.llm) problems.push("FACT_EXTRACTION=llm needs OPENAI_API_KEY or OPENAI_BASE_URL");
  const bundled = bundledEncoding();
  if (bundled !== undefined && bundled !== config.tokenizer)
    problems.push(`TOKENIZER=${config.tokenizer} but this build bundles the ${bundled} rank table (wrangler.toml [define])`);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function memoryOptions(v: ConfigValues): MemoryOptions {
  return Object.freeze({
    ...DEFAULT_MEMORY_OPTIONS,
    window: v.MEMORY_WINDOW,
    maxTokens: v.MEMORY_MAX_TOKENS,
    keep: v.MEMORY_KEEP,
    budget: v.CONTEXT_BUDGET,
    shares: v.BUDGET_SHARES,
    importanceThreshold: v.IMPORTANCE_THRESHOLD,
    summaryMaxTokens: v.SUMMARY_MAX_TOKENS,
    summaryFailureLimit: v.SUMMARY_FAILURES_BEFORE_FALLBACK,
    archiveLimit: v.ARCHIVE_LIMIT,
    sessionTtlSeconds: v.SESSION_TTL_SECONDS,
    recallK: v.RECALL_K,
    minRecallScore: v.RECALL_MIN_SCORE,
    impersonalGate: v.RECALL_IMPERSONAL_GATE === "on",
    recallMargin: v.RECALL_MARGIN,
    // Worker-side embeddings are dense vectors: the index's sparse model never sees the text.
    retrieval: v.EMBEDDINGS === "openai" ? "dense" : v.VECTOR_INDEX,
    fusion: v.VECTOR_FUSION,
    factsLabel: v.FACTS_LABEL,
    redact: v.REDACT,
    episodes: v.EPISODES === "on",
    factPolicies: {
      ...DEFAULT_MEMORY_OPTIONS.factPolicies,
      episode: { ...DEFAULT_MEMORY_OPTIONS.factPolicies.episode, ttlSeconds: v.EPISODE_TTL_DAYS * 86_400 },
    },
  });
}
