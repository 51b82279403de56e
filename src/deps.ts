import type { Redis } from "@upstash/redis/cloudflare";
import type { Index } from "@upstash/vector/cloudflare";
import type OpenAI from "openai";
import { createIndex, createRedis } from "./clients.ts";
import type { Config } from "./config.ts";
import { ApiError } from "./http/errors.ts";
import { createOpenAIClient } from "./llm/openai-client.ts";
import { OpenAIChatModel } from "./llm/openai-chat.ts";
import { embedTexts } from "./llm/openai-embedder.ts";
import { OpenAIFactExtractor } from "./llm/openai-extractor.ts";
import { HeuristicFactExtractor } from "./llm/heuristic-extractor.ts";
import { OpenAISummarizer } from "./llm/openai-summarizer.ts";
import { ExtractiveSummarizer } from "./memory/extractive.ts";
import type { ChatModel, FactExtractor, FactStore, SessionStore, Summarizer, TokenCounter, WorkingMemoryStore } from "./memory/ports.ts";
import { loadTokenCounter } from "./memory/tokens.ts";
import { RedisSessionStore } from "./stores/session-store.ts";
import { RedisWorkingMemoryStore } from "./stores/working-memory-store.ts";
import { VectorFactStore } from "./stores/facts-vector.ts";
import { guardUpstream } from "./upstream.ts";

/** What a request may use, built from the configuration; nothing here opens a connection. */
export interface Deps {
  clients: { redis: Redis | null; vector: Index | null; openai: OpenAI | null };
  /** Short-term memory; 503 when Redis is not configured. */
  sessions(): SessionStore;
  working(): WorkingMemoryStore;
  /** Long-term memory; null when Vector is not configured. */
  facts: FactStore | null;
  /** The LLM summarizer, or the extractive one when no LLM is configured. */
  summarizer(counter: TokenCounter): Summarizer;
  counter(): Promise<TokenCounter>;
  /** Null when no LLM is configured. */
  chat: ChatModel | null;
  /** Null when FACT_EXTRACTION=off. */
  extractor: FactExtractor | null;
  /** Hands background work to the runtime (ctx.waitUntil); failures are logged, never thrown. */
  background: (work: Promise<unknown>) => void;
}

interface BackgroundContext {
  waitUntil(promise: Promise<unknown>): void;
}

export function createDeps(config: Config, ctx: BackgroundContext | undefined): Deps {
  const redis = config.redis ? createRedis(config.redis, config.upstreamTimeoutMs) : null;
  const vector = config.vector ? createIndex(config.vector, config.upstreamTimeoutMs) : null;
  const openai = config.llm
    ? createOpenAIClient({ apiKey: config.llm.apiKey, baseURL: config.llm.baseURL, timeoutMs: config.llm.timeoutMs })
    : null;
  const model = config.llm?.model ?? "";
  const embed =
    config.embeddings === "openai" && openai
      ? (texts: string[]) => embedTexts(openai, config.embeddingModel, texts)
      : undefined;
  const needRedis = (): Redis => {
    if (!redis) throw new ApiError(503, "upstream_unavailable", "Redis is not configured (UPSTASH_REDIS_REST_URL / _TOKEN)");
    return redis;
  };
  return {
    clients: { redis, vector, openai },
    sessions: () => guardUpstream(new RedisSessionStore(needRedis()), "redis"),
    working: () => guardUpstream(new RedisWorkingMemoryStore(needRedis()), "redis"),
    facts: vector ? guardUpstream(new VectorFactStore(vector, { embed }), "vector") : null,
    summarizer: (counter) => (openai ? new OpenAISummarizer(openai, { model }) : new ExtractiveSummarizer(counter)),
    counter: () => loadTokenCounter({ encoding: config.tokenizer }),
    chat: openai ? new OpenAIChatModel(openai, { model }) : null,
    extractor:
      config.factExtraction === "off"
        ? null
        : config.factExtraction === "llm" && openai
          ? new OpenAIFactExtractor(openai, { model })
          : new HeuristicFactExtractor(),
    background: (work) => {
      const guarded = work.catch((err: unknown) => {
        console.error(JSON.stringify({ level: "error", msg: "background work failed", error: String(err) }));
      });
      if (ctx) ctx.waitUntil(guarded);
    },
  };
}
