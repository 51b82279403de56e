/** One configuration variable of the Worker. The dev script forwards every one that is set. */
export interface ConfigVar {
  name: string;
  /** Shown in the README and in config errors. */
  description: string;
  /** The default when unset, as the text it would be set to; absent means "off / none". */
  default?: string;
  /** Holds a credential: never logged, put with `wrangler secret put` in production. */
  secret?: boolean;
}

/** Every variable the Worker reads. `src/config.ts` parses these; `scripts/dev.ts` forwards them. */
export const CONFIG_VARS = [
  { name: "API_KEYS", description: "Comma-separated tenant:key pairs, e.g. acme:k1,globex:k2", secret: true },
  { name: "UPSTASH_REDIS_REST_URL", description: "Upstash Redis REST URL" },
  { name: "UPSTASH_REDIS_REST_TOKEN", description: "Upstash Redis REST token", secret: true },
  { name: "UPSTASH_VECTOR_REST_URL", description: "Upstash Vector REST URL (the index should embed text: upsert-data)" },
  { name: "UPSTASH_VECTOR_REST_TOKEN", description: "Upstash Vector REST token", secret: true },
  { name: "UPSTREAM_TIMEOUT_MS", description: "Timeout of one Redis or Vector request, ms", default: "5000" },
  { name: "OPENAI_API_KEY", description: "Key of the OpenAI-compatible LLM; no LLM when neither it nor OPENAI_BASE_URL is set", secret: true },
  { name: "OPENAI_BASE_URL", description: "Base URL of any OpenAI-compatible API (DeepSeek, Azure, Ollama, vLLM...)" },
  { name: "OPENAI_MODEL", description: "Chat model for replies, summaries and fact extraction", default: "gpt-4o-mini" },
  { name: "OPENAI_TIMEOUT_MS", description: "Timeout of one LLM request, ms (background work must end within 30 s)", default: "15000" },
  { name: "EMBEDDINGS", description: "index (the Vector index embeds text) or openai (embeddings computed in the Worker)", default: "index" },
  { name: "OPENAI_EMBEDDING_MODEL", description: "Embedding model when EMBEDDINGS=openai", default: "text-embedding-3-small" },
  { name: "FACT_EXTRACTION", description: "off, heuristic (cue words) or llm (LLM extraction with merge)", default: "heuristic" },
  { name: "MEMORY_WINDOW", description: "Most recent messages the context may show; 0 = unlimited (the token budget decides)", default: "0" },
  { name: "MEMORY_MAX_TOKENS", description: "Compress when unsummarized window tokens exceed this", default: "2000" },
  { name: "MEMORY_KEEP", description: "Newest messages never compressed", default: "4" },
  { name: "CONTEXT_BUDGET", description: "Token budget of an assembled context", default: "8000" },
  { name: "BUDGET_SHARES", description: "Shares of the budget, e.g. system=0.15,summary=0.1,facts=0.3,window=0.4,reply=0.05" },
  { name: "IMPORTANCE_THRESHOLD", description: "Below this importance a message leaves the returned context first", default: "0.3" },
  { name: "SUMMARY_MAX_TOKENS", description: "Upper bound of the rolling summary", default: "500" },
  { name: "ARCHIVE_LIMIT", description: "Archived originals kept per session after compression (0 = none)", default: "1000" },
  { name: "SESSION_TTL_SECONDS", description: "Idle time after which a session expires", default: "604800" },
  { name: "NOTES_TTL_SECONDS", description: "Idle time after which working memory (notes, scratchpad) expires", default: "86400" },
  { name: "RECALL_K", description: "Facts recalled into a context", default: "3" },
  { name: "RECALL_MIN_SCORE", description: "Minimum combined score of a recalled fact" },
  { name: "FACTS_LABEL", description: "Label of the recalled-facts system message" },
  { name: "TOKENIZER", description: "cl100k_base or o200k_base", default: "cl100k_base" },
  { name: "MAX_BODY_BYTES", description: "Largest accepted request body", default: "1048576" },
  { name: "MAX_MESSAGES_PER_REQUEST", description: "Most messages one append may carry", default: "100" },
  { name: "MAX_MESSAGE_CHARS", description: "Longest message content, characters", default: "32000" },
  { name: "CLEANUP_BATCH", description: "Facts examined per cron run before it stops and resumes next time", default: "2000" },
] as const satisfies readonly ConfigVar[];

export type ConfigVarName = (typeof CONFIG_VARS)[number]["name"];
