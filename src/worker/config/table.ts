/** @module The table of every configuration variable: name, default, description and parser. */
import { DEFAULT_MEMORY_OPTIONS, OPTION_BOUNDS } from "../../memory/options.ts";
import { DEFAULT_RECALL_GATES } from "../../memory/facts/index.ts";
import {
  parseApiKeys,
  parseEncryptionKeys,
  parseOptionalScore,
  parseOrigins,
  parseRateLimit,
  parseRedact,
  parseSecret,
  parseShares,
  SHARE_NAMES,
} from "./formats.ts";
import { customVar, enumVar, intVar, numberVar, stringVar } from "./vars.ts";

const d = DEFAULT_MEMORY_OPTIONS;
const b = OPTION_BOUNDS;
const sharesText = SHARE_NAMES.map((n) => `${n}=${d.shares[n]}`).join(",");

/**
 * Every variable the Worker reads: the one source of parsing (`parse.ts`), of the dev script's
 * forwarding (`scripts/dev.ts`) and of the README's configuration table (`npm run docs:config`).
 */
export const CONFIG_VARS = {
  API_KEYS: customVar("API_KEYS", {
    description:
      "comma-separated `tenant:key` pairs; a key grants exactly one tenant; `tenant:key:read` gives a key the read role (reads only)",
    defaultText: "`dev:dev-key` under `npm run dev` only",
    secret: true,
    parse: parseApiKeys,
  }),
  UPSTASH_REDIS_REST_URL: stringVar("UPSTASH_REDIS_REST_URL", {
    description: "Upstash Redis REST URL",
    defaultText: "upstash-local under `npm run dev`",
  }),
  UPSTASH_REDIS_REST_TOKEN: stringVar("UPSTASH_REDIS_REST_TOKEN", { description: "Upstash Redis REST token", secret: true }),
  UPSTASH_VECTOR_REST_URL: stringVar("UPSTASH_VECTOR_REST_URL", {
    description: "Upstash Vector REST URL (an index with an embedding model, e.g. BGE-M3)",
    defaultText: "upstash-local under `npm run dev`",
  }),
  UPSTASH_VECTOR_REST_TOKEN: stringVar("UPSTASH_VECTOR_REST_TOKEN", { description: "Upstash Vector REST token", secret: true }),
  UPSTREAM_TIMEOUT_MS: intVar("UPSTREAM_TIMEOUT_MS", {
    description: "timeout of one Redis or Vector request, ms",
    default: 5000,
    min: 100,
    max: 60_000,
  }),
  OPENAI_API_KEY: stringVar("OPENAI_API_KEY", {
    description:
      "key of any OpenAI-compatible API; with neither it nor `OPENAI_BASE_URL` set the service runs offline (extractive summaries, heuristic extraction, no `/chat`)",
    secret: true,
  }),
  OPENAI_BASE_URL: stringVar("OPENAI_BASE_URL", {
    description: "base URL of any OpenAI-compatible API (DeepSeek, Azure, Ollama, vLLM...)",
  }),
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
  OPENAI_EMBEDDING_MODEL: stringVar("OPENAI_EMBEDDING_MODEL", {
    description: "embedding model with `EMBEDDINGS=openai`",
    default: "text-embedding-3-small",
  }),
  OPENAI_EMBEDDING_DIMENSIONS: customVar("OPENAI_EMBEDDING_DIMENSIONS", {
    description: "shortens the vectors with `EMBEDDINGS=openai` (text-embedding-3 models) to the Vector index's dimension",
    defaultText: "the model's own size",
    parse: (raw, problems) => {
      if (raw === undefined) return undefined;
      const n = Number(raw);
      if (!/^\d+$/.test(raw) || n < 1 || n > 8192) {
        problems.push(`OPENAI_EMBEDDING_DIMENSIONS must be an integer from 1 to 8192, got "${raw}"`);
        return undefined;
      }
      return n;
    },
  }),
  FACT_EXTRACTION: enumVar("FACT_EXTRACTION", {
    description:
      "how facts are learned from user messages: not at all, by the offline learner's rules (docs/offline-learner.md), or by the LLM (one call per turn deciding add / update / supersede; the offline learner takes a turn whose LLM call fails)",
    values: ["off", "heuristic", "llm"],
    default: "heuristic",
  }),
  REDACT: customVar("REDACT", {
    description:
      "sensitive data replaced with `[redacted]` before it is learned, stored as a fact or recalled (docs/security.md lists what is caught): `on`, `off`, or a comma list of `credentials` (passwords, PINs, API keys, tokens, private keys), `cards` (Luhn-checked card numbers, CVV), `ids` (SSN, Chinese resident id, passport/ID numbers), `bank` (IBAN, account numbers)",
    defaultText: "on",
    parse: parseRedact,
  }),
  MEMORY_WINDOW: intVar("MEMORY_WINDOW", {
    description: "most recent messages a context may show; 0 = unlimited (the token budget decides)",
    default: d.window,
    ...b.window,
  }),
  MEMORY_MAX_TOKENS: intVar("MEMORY_MAX_TOKENS", {
    description: "compress when unsummarized window tokens exceed this",
    default: d.maxTokens,
    ...b.maxTokens,
  }),
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
  SUMMARY_MAX_TOKENS: intVar("SUMMARY_MAX_TOKENS", {
    description: "upper bound of the rolling summary, tokens",
    default: d.summaryMaxTokens,
    ...b.summaryMaxTokens,
  }),
  SUMMARY_FAILURES_BEFORE_FALLBACK: intVar("SUMMARY_FAILURES_BEFORE_FALLBACK", {
    description: "consecutive LLM summarizer failures after which compression uses the extractive summarizer (0 = never)",
    default: d.summaryFailureLimit,
    min: 0,
    max: 100,
  }),
  ARCHIVE_LIMIT: intVar("ARCHIVE_LIMIT", {
    description: "archived originals kept per session (`GET .../history`); 0 = none",
    default: d.archiveLimit,
    ...b.archiveLimit,
  }),
  SESSION_TTL_SECONDS: intVar("SESSION_TTL_SECONDS", {
    description: "idle time after which a session expires (refreshed on every write)",
    default: d.sessionTtlSeconds,
    ...b.sessionTtlSeconds,
  }),
  NOTES_TTL_SECONDS: intVar("NOTES_TTL_SECONDS", {
    description: "idle time after which working memory (notes, scratchpad) expires",
    default: 86_400,
    min: 1,
    max: 31_536_000,
  }),
  RECALL_K: intVar("RECALL_K", {
    description:
      "most memories recalled into a context (a cap: the facts share of the budget decides how many fit, learned facts before episodes)",
    default: d.recallK,
    ...b.recallK,
  }),
  EPISODES: enumVar("EPISODES", {
    description:
      "keep each learned turn's user messages as episodes (verbatim, dated, type `episode`) beside the facts learned from them; recall searches both. Written by learning, so `FACT_EXTRACTION=off` writes none",
    values: ["on", "off"],
    default: "on",
  }),
  EPISODE_TTL_DAYS: intVar("EPISODE_TTL_DAYS", {
    description: "lifetime of an episode after it was stored (erase, TTL sweep and decay treat it like a fact)",
    default: d.factPolicies.episode.ttlSeconds / 86_400,
    min: 1,
    max: 36_500,
  }),
  RECALL_MIN_SCORE: customVar("RECALL_MIN_SCORE", {
    description: "the relevance gate (0..1, 0 = unrelated) a recalled fact must reach; `minScore` of a request overrides it",
    defaultText: `calibrated per mode: dense ${DEFAULT_RECALL_GATES.dense}, sparse ${DEFAULT_RECALL_GATES.sparse}, hybrid ${DEFAULT_RECALL_GATES.hybrid}, rrf/dbsf ${DEFAULT_RECALL_GATES.rrf}`,
    parse: parseOptionalScore,
  }),
  RECALL_IMPERSONAL_GATE: enumVar("RECALL_IMPERSONAL_GATE", {
    description:
      "hold a query that is not about the user (no I/my/we, 我/自己: a task, a translation, trivia) to the higher impersonal gate: abstains on more unrelated queries, misses more related ones that drop the pronoun (docs/recall.md); hybrid index only; ignored when `RECALL_MIN_SCORE` is set",
    values: ["on", "off"],
    default: "off",
  }),
  RECALL_MARGIN: numberVar("RECALL_MARGIN", {
    description: "relevance difference within which importance, use and recency may reorder recalled facts",
    default: d.recallMargin,
    ...b.recallMargin,
  }),
  VECTOR_INDEX: enumVar("VECTOR_INDEX", {
    description:
      "kind of the Vector index (as created in the Upstash console): recall searches its dense part, its sparse BM25 part, or both; checked against the index's own `info` (a mismatch fails `/healthz` and answers 503 naming what to set)",
    values: ["dense", "sparse", "hybrid"],
    default: d.retrieval,
  }),
  VECTOR_FUSION: enumVar("VECTOR_FUSION", {
    description:
      "hybrid index: `worker` queries both parts in one request and fuses calibrated scores; `rrf` / `dbsf` use the index's fusion",
    values: ["worker", "rrf", "dbsf"],
    default: d.fusion,
  }),
  FACTS_LABEL: stringVar("FACTS_LABEL", { description: "first line of the recalled-facts system message", default: d.factsLabel }),
  TOKENIZER: enumVar("TOKENIZER", {
    description: "token counting; the bundle carries only the rank table wrangler.toml's `[define]` names, which must match",
    values: ["cl100k_base", "o200k_base"],
    default: "cl100k_base",
  }),
  MAX_BODY_BYTES: intVar("MAX_BODY_BYTES", {
    description: "largest accepted request body, bytes",
    default: 1_048_576,
    min: 1024,
    max: 10_485_760,
  }),
  MAX_MESSAGES_PER_REQUEST: intVar("MAX_MESSAGES_PER_REQUEST", {
    description: "most messages one write may carry",
    default: 100,
    min: 1,
    max: 1000,
  }),
  MAX_MESSAGE_CHARS: intVar("MAX_MESSAGE_CHARS", {
    description: "longest message content a client may send, characters (a model's reply is stored whole)",
    default: 32_000,
    min: 1,
    max: 1_000_000,
  }),
  TRACE_TTL_SECONDS: intVar("TRACE_TTL_SECONDS", {
    description: "how long per-turn traces are kept (`GET /v1/traces/{traceId}`); 0 = tracing off",
    default: 86_400,
    min: 0,
    max: 2_592_000,
  }),
  MEMORY_ENCRYPTION_KEYS: customVar("MEMORY_ENCRYPTION_KEYS", {
    description:
      "comma-separated `kid:base64-32-bytes` AES-256-GCM keys, newest first: message contents, tool arguments, summaries, notes, titles and fact texts are sealed at rest with the first; reads accept all (rotation: prepend a new key, keep the old until the cron has re-sealed)",
    defaultText: "unset: stored in clear",
    secret: true,
    parse: parseEncryptionKeys,
  }),
  SEAL_FACT_METADATA: enumVar("SEAL_FACT_METADATA", {
    description:
      "with MEMORY_ENCRYPTION_KEYS: `on` seals a fact's client `metadata` too (in Vector and in the fact queue); `off` keeps it clear so metadata filters can run in Vector",
    values: ["off", "on"],
    default: "off",
  }),
  BACKUP_RETENTION: intVar("BACKUP_RETENTION", {
    description: "fact snapshots kept per user in the `BACKUPS` R2 bucket",
    default: 7,
    min: 1,
    max: 1000,
  }),
  BACKUP_INTERVAL_SECONDS: intVar("BACKUP_INTERVAL_SECONDS", {
    description: "the cron snapshots a user's facts when the newest snapshot is older than this",
    default: 86_400,
    min: 60,
    max: 31_536_000,
  }),
  CLEANUP_BATCH: intVar("CLEANUP_BATCH", {
    description: "facts examined per cron run before it stops and resumes next run",
    default: 2000,
    min: 10,
    max: 100_000,
  }),
  CORS_ORIGINS: customVar("CORS_ORIGINS", {
    description: "comma-separated origins browsers may call from (`https://app.example`, or `*`); unset: no CORS headers",
    parse: parseOrigins,
  }),
  TOKEN_SECRET: customVar("TOKEN_SECRET", {
    description: "HS256 secret (32+ characters) that signs the short-lived user tokens of `POST /v1/tokens`; unset: tokens are off",
    secret: true,
    parse: parseSecret,
  }),
  RATE_LIMIT: customVar("RATE_LIMIT", {
    description:
      "requests per window allowed to each credential and to each user, like `600/60s`; over it: 429 with `Retry-After`; unset: no limit",
    parse: parseRateLimit,
  }),
  AUDIT_MAX_ENTRIES: intVar("AUDIT_MAX_ENTRIES", {
    description: "audit log entries kept per tenant (`GET /v1/audit`); the oldest go first",
    default: 10_000,
    min: 100,
    max: 1_000_000,
  }),
} as const;

export type ConfigVarName = keyof typeof CONFIG_VARS;

/** The parsed value of every variable. */
export type ConfigValues = { [K in ConfigVarName]: ReturnType<(typeof CONFIG_VARS)[K]["parse"]> };
