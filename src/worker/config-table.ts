import { isValidId } from "../memory/ids.ts";
import { DEFAULT_MEMORY_OPTIONS, OPTION_BOUNDS, type BudgetShares } from "../memory/options.ts";
import { DEFAULT_RECALL_GATES } from "../memory/recall.ts";
import { customVar, enumVar, intVar, numberVar, stringVar } from "./config-vars.ts";

/** One API key, the tenant it grants and what it may do. */
export interface ApiKeyEntry {
  tenant: string;
  key: string;
}

/** An optional number in 0..1 (unset = the calibrated default of the retrieval mode). */
function parseOptionalScore(raw: string | undefined, problems: string[]): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < b.minRecallScore.min || value > b.minRecallScore.max) {
    problems.push(`RECALL_MIN_SCORE must be a number in ${b.minRecallScore.min}..${b.minRecallScore.max}`);
    return undefined;
  }
  return value;
}

/** Parses `tenant:key,tenant2:key2`. */
function parseApiKeys(raw: string | undefined, problems: string[]): ApiKeyEntry[] {
  const entries: ApiKeyEntry[] = [];
  for (const part of (raw ?? "").split(",")) {
    const item = part.trim();
    if (item === "") continue;
    const colon = item.indexOf(":");
    const tenant = colon > 0 ? item.slice(0, colon) : "";
    const key = colon > 0 ? item.slice(colon + 1) : "";
    if (!isValidId(tenant) || key.length < 6) {
      problems.push(`API_KEYS entry "${tenant || item.slice(0, 8)}..." must be tenant:key with a valid tenant id and a key of 6+ characters`);
      continue;
    }
    entries.push({ tenant, key });
  }
  return entries;
}

const SHARE_NAMES = ["system", "summary", "facts", "window", "reply"] as const;

/** Parses `system=0.15,summary=0.1,...`; unnamed shares keep their defaults; the sum must be <= 1. */
function parseShares(raw: string | undefined, problems: string[]): BudgetShares {
  const defaults = DEFAULT_MEMORY_OPTIONS.shares;
  if (raw === undefined) return defaults;
  const shares: BudgetShares = { ...defaults };
  for (const part of raw.split(",")) {
    const [name, value] = part.split("=").map((s) => s.trim());
    const share = Number(value);
    if (!name || !(SHARE_NAMES as readonly string[]).includes(name) || value === "" || !Number.isFinite(share) || share < 0 || share > 1) {
      problems.push(`BUDGET_SHARES entry "${part}" must be name=0..1 with name one of ${SHARE_NAMES.join(", ")}`);
      continue;
    }
    shares[name as (typeof SHARE_NAMES)[number]] = share;
  }
  const sum = SHARE_NAMES.reduce((total, name) => total + shares[name], 0);
  if (sum > 1.0001) problems.push(`BUDGET_SHARES must sum to at most 1, got ${sum.toFixed(3)}`);
  return shares;
}

const d = DEFAULT_MEMORY_OPTIONS;
const b = OPTION_BOUNDS;
const sharesText = SHARE_NAMES.map((n) => `${n}=${d.shares[n]}`).join(",");

/**
 * Every variable the Worker reads: the one source of parsing (`config.ts`), of the dev script's
 * forwarding (`scripts/dev.ts`) and of the README's configuration table (`npm run docs:config`).
 */
export const CONFIG_VARS = {
  API_KEYS: customVar("API_KEYS", {
    description: "comma-separated `tenant:key` pairs; a key grants exactly one tenant",
    defaultText: "`dev:dev-key` under `npm run dev` only",
    secret: true,
    parse: parseApiKeys,
  }),
  UPSTASH_REDIS_REST_URL: stringVar("UPSTASH_REDIS_REST_URL", { description: "Upstash Redis REST URL", defaultText: "upstash-local under `npm run dev`" }),
  UPSTASH_REDIS_REST_TOKEN: stringVar("UPSTASH_REDIS_REST_TOKEN", { description: "Upstash Redis REST token", secret: true }),
  UPSTASH_VECTOR_REST_URL: stringVar("UPSTASH_VECTOR_REST_URL", {
    description: "Upstash Vector REST URL (an index with an embedding model, e.g. BGE-M3)",
    defaultText: "upstash-local under `npm run dev`",
  }),
  UPSTASH_VECTOR_REST_TOKEN: stringVar("UPSTASH_VECTOR_REST_TOKEN", { description: "Upstash Vector REST token", secret: true }),
  UPSTREAM_TIMEOUT_MS: intVar("UPSTREAM_TIMEOUT_MS", { description: "timeout of one Redis or Vector request, ms", default: 5000, min: 100, max: 60_000 }),
  OPENAI_API_KEY: stringVar("OPENAI_API_KEY", {
    description: "key of any OpenAI-compatible API; with neither it nor `OPENAI_BASE_URL` set the service runs offline (extractive summaries, heuristic extraction, no `/chat`)",
    secret: true,
  }),
  OPENAI_BASE_URL: stringVar("OPENAI_BASE_URL", { description: "base URL of any OpenAI-compatible API (DeepSeek, Azure, Ollama, vLLM...)" }),
  OPENAI_MODEL: stringVar("OPENAI_MODEL", { description: "chat model for replies, summaries and fact extraction", default: "gpt-4o-mini" }),
  OPENAI_TIMEOUT_MS: intVar("OPENAI_TIMEOUT_MS", {
    description: "timeout of one LLM request, ms (background work must end within 30 s)",
    default: 15_000,
    min: 100,
    max: 120_000,
  }),
  EMBEDDINGS: enumVar("EMBEDDINGS", {
    description: "who embeds fact texts: the Vector index's own model, or the Worker through the OpenAI-compatible API",
    values: ["index", "openai"],
    default: "index",
  }),
  OPENAI_EMBEDDING_MODEL: stringVar("OPENAI_EMBEDDING_MODEL", { description: "embedding model with `EMBEDDINGS=openai`", default: "text-embedding-3-small" }),
  FACT_EXTRACTION: enumVar("FACT_EXTRACTION", {
    description: "how facts are learned from user messages: not at all, by cue words, or by the LLM with merge",
    values: ["off", "heuristic", "llm"],
    default: "heuristic",
  }),
  MEMORY_WINDOW: intVar("MEMORY_WINDOW", { description: "most recent messages a context may show; 0 = unlimited (the token budget decides)", default: d.window, ...b.window }),
  MEMORY_MAX_TOKENS: intVar("MEMORY_MAX_TOKENS", { description: "compress when unsummarized window tokens exceed this", default: d.maxTokens, ...b.maxTokens }),
  MEMORY_KEEP: intVar("MEMORY_KEEP", { description: "newest messages never compressed", default: d.keep, ...b.keep }),
  CONTEXT_BUDGET: intVar("CONTEXT_BUDGET", { description: "token budget of an assembled context", default: d.budget, ...b.budget }),
  BUDGET_SHARES: customVar("BUDGET_SHARES", {
    description: "caps per part of the budget; unused share flows to the window; must sum to at most 1",
    defaultText: sharesText,
    parse: parseShares,
  }),
  IMPORTANCE_THRESHOLD: numberVar("IMPORTANCE_THRESHOLD", {
    description: "below this importance a message leaves the returned context first",
    default: d.importanceThreshold,
    ...b.importanceThreshold,
  }),
  SUMMARY_MAX_TOKENS: intVar("SUMMARY_MAX_TOKENS", { description: "upper bound of the rolling summary, tokens", default: d.summaryMaxTokens, ...b.summaryMaxTokens }),
  SUMMARY_FAILURES_BEFORE_FALLBACK: intVar("SUMMARY_FAILURES_BEFORE_FALLBACK", {
    description: "consecutive LLM summarizer failures after which compression uses the extractive summarizer (0 = never)",
    default: d.summaryFailureLimit,
    min: 0,
    max: 100,
  }),
  ARCHIVE_LIMIT: intVar("ARCHIVE_LIMIT", { description: "archived originals kept per session (`GET .../history`); 0 = none", default: d.archiveLimit, ...b.archiveLimit }),
  SESSION_TTL_SECONDS: intVar("SESSION_TTL_SECONDS", {
    description: "idle time after which a session expires (refreshed on every write)",
    default: d.sessionTtlSeconds,
    ...b.sessionTtlSeconds,
  }),
  NOTES_TTL_SECONDS: intVar("NOTES_TTL_SECONDS", { description: "idle time after which working memory (notes, scratchpad) expires", default: 86_400, min: 1, max: 31_536_000 }),
  RECALL_K: intVar("RECALL_K", { description: "facts recalled into a context", default: d.recallK, ...b.recallK }),
  RECALL_MIN_SCORE: customVar("RECALL_MIN_SCORE", {
    description: "the relevance gate (0..1, 0 = unrelated) a recalled fact must reach; `minScore` of a request overrides it",
    defaultText: `calibrated per mode: dense ${DEFAULT_RECALL_GATES.dense}, sparse ${DEFAULT_RECALL_GATES.sparse}, hybrid ${DEFAULT_RECALL_GATES.hybrid}, rrf/dbsf ${DEFAULT_RECALL_GATES.rrf}`,
    parse: parseOptionalScore,
  }),
  RECALL_MARGIN: numberVar("RECALL_MARGIN", {
    description: "relevance difference within which importance, use and recency may reorder recalled facts",
    default: d.recallMargin,
    ...b.recallMargin,
  }),
  VECTOR_INDEX: enumVar("VECTOR_INDEX", {
    description: "kind of the Vector index (as created in the Upstash console): recall searches its dense part, its sparse BM25 part, or both",
    values: ["dense", "sparse", "hybrid"],
    default: d.retrieval,
  }),
  VECTOR_FUSION: enumVar("VECTOR_FUSION", {
    description: "hybrid index: `worker` queries both parts in one request and fuses calibrated scores; `rrf` / `dbsf` use the index's fusion",
    values: ["worker", "rrf", "dbsf"],
    default: d.fusion,
  }),
  FACTS_LABEL: stringVar("FACTS_LABEL", { description: "first line of the recalled-facts system message", default: d.factsLabel }),
  TOKENIZER: enumVar("TOKENIZER", { description: "token counting", values: ["cl100k_base", "o200k_base"], default: "cl100k_base" }),
  MAX_BODY_BYTES: intVar("MAX_BODY_BYTES", { description: "largest accepted request body, bytes", default: 1_048_576, min: 1024, max: 10_485_760 }),
  MAX_MESSAGES_PER_REQUEST: intVar("MAX_MESSAGES_PER_REQUEST", { description: "most messages one write may carry", default: 100, min: 1, max: 1000 }),
  MAX_MESSAGE_CHARS: intVar("MAX_MESSAGE_CHARS", { description: "longest message content, characters", default: 32_000, min: 1, max: 1_000_000 }),
  CLEANUP_BATCH: intVar("CLEANUP_BATCH", { description: "facts examined per cron run before it stops and resumes next run", default: 2000, min: 10, max: 100_000 }),
} as const;

export type ConfigVarName = keyof typeof CONFIG_VARS;

/** The parsed value of every variable. */
export type ConfigValues = { [K in ConfigVarName]: ReturnType<(typeof CONFIG_VARS)[K]["parse"]> };
