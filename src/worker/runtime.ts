import type { Redis } from "@upstash/redis/cloudflare";
import type { Index } from "@upstash/vector/cloudflare";
import type OpenAI from "openai";
import { createOpenAIClient } from "../llm/openai-client.ts";
import { OpenAIChatModel } from "../llm/openai-chat.ts";
import { embedTexts } from "../llm/openai-embedder.ts";
import { OpenAIFactExtractor } from "../llm/openai-extractor.ts";
import { HeuristicFactExtractor } from "../llm/heuristic-extractor.ts";
import { OpenAISummarizer } from "../llm/openai-summarizer.ts";
import { loadTokenCounter } from "../llm/tokenizer.ts";
import type { MemoryDeps } from "../memory/deps.ts";
import { ExtractiveSummarizer } from "../memory/extractive.ts";
import { Memory } from "../memory/memory.ts";
import type { FactStore, SessionStore, Summarizer, TokenCounter, UserStore, WorkingMemoryStore } from "../memory/ports.ts";
import { VectorFactStore } from "../stores/facts-vector.ts";
import { RedisSessionStore } from "../stores/session-store.ts";
import { RedisUserStore } from "../stores/user-store.ts";
import { RedisWorkingMemoryStore } from "../stores/working-memory-store.ts";
import { createIndex, createRedis } from "./clients.ts";
import { loadConfig, type Config } from "./config.ts";
import { jsonLogger } from "./log.ts";
import { guardUpstream, unconfigured } from "./upstream.ts";

export type UpstreamStatus = "ok" | "down" | "not_configured";

export interface Health {
  ok: boolean;
  redis: UpstreamStatus;
  vector: UpstreamStatus;
  llm: "configured" | "not_configured";
  errors?: { redis?: string; vector?: string };
}

/** What one request may use: the configuration, the use cases of a tenant, the health probes. */
export interface Runtime {
  config: Config;
  /** The use cases of one tenant for this request. */
  memory(tenant: string): Memory;
  health(): Promise<Health>;
  /** Hands work to `ctx.waitUntil`; failures are logged, never thrown. */
  background(work: Promise<unknown>): void;
}

/** The part of the Workers execution context the runtime uses. */
export interface BackgroundContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** The adapters of one configuration; nothing here opens a connection. Shared by its requests. */
export interface Adapters {
  redis: Redis | null;
  vector: Index | null;
  sessions: SessionStore;
  users: UserStore;
  working: WorkingMemoryStore;
  facts: FactStore | null;
  summarizer: Summarizer;
  fallbackSummarizer: Summarizer;
  deps: Pick<MemoryDeps, "extractor" | "chat">;
  counter(): Promise<TokenCounter>;
}

const adapterCache = new WeakMap<Config, Adapters>();

/** Builds (once per configuration) the clients and adapters, each guarded so failures map cleanly. */
export function adaptersFor(config: Config): Adapters {
  const cached = adapterCache.get(config);
  if (cached) return cached;
  const redis = config.redis ? createRedis(config.redis, config.upstreamTimeoutMs) : null;
  const vector = config.vector ? createIndex(config.vector, config.upstreamTimeoutMs) : null;
  const openai: OpenAI | null = config.llm
    ? createOpenAIClient({ apiKey: config.llm.apiKey, baseURL: config.llm.baseURL, timeoutMs: config.llm.timeoutMs })
    : null;
  const model = config.llm?.model ?? "";
  const embed = config.embeddings === "openai" && openai ? (texts: string[]) => embedTexts(openai, config.embeddingModel, texts) : undefined;
  const counter = () => loadTokenCounter({ encoding: config.tokenizer });
  // The extractive summarizer needs the counter; it is built on first use like everything that counts.
  const extractive: Summarizer = { summarize: async (request) => new ExtractiveSummarizer(await counter()).summarize(request) };
  const redisMissing = "Redis is not configured (UPSTASH_REDIS_REST_URL / _TOKEN)";
  const adapters: Adapters = {
    redis,
    vector,
    sessions: redis ? guardUpstream(new RedisSessionStore(redis), "redis") : unconfigured<SessionStore>("redis", redisMissing),
    users: redis ? guardUpstream(new RedisUserStore(redis), "redis") : unconfigured<UserStore>("redis", redisMissing),
    working: redis ? guardUpstream(new RedisWorkingMemoryStore(redis), "redis") : unconfigured<WorkingMemoryStore>("redis", redisMissing),
    facts: vector ? guardUpstream(new VectorFactStore(vector, { embed, retrieval: config.memory.retrieval, fusion: config.memory.fusion }), "vector") : null,
    summarizer: openai ? new OpenAISummarizer(openai, { model }) : extractive,
    fallbackSummarizer: extractive,
    deps: {
      chat: openai ? new OpenAIChatModel(openai, { model }) : null,
      extractor:
        config.factExtraction === "off"
          ? null
          : config.factExtraction === "llm" && openai
            ? new OpenAIFactExtractor(openai, { model })
            : new HeuristicFactExtractor(),
    },
    counter,
  };
  adapterCache.set(config, adapters);
  return adapters;
}

/** Background work for `ctx.waitUntil`: failures are logged, never thrown. */
export function backgroundFor(ctx: BackgroundContext | undefined): (work: Promise<unknown>) => void {
  return (work) => {
    const guarded = work.catch((err: unknown) => jsonLogger.error("background work failed", { error: String(err) }));
    if (ctx) ctx.waitUntil(guarded);
  };
}

/** Builds the runtime of one request from the Worker's bindings. Throws `ConfigError` on bad config. */
export function createRuntime(env: object, ctx: BackgroundContext | undefined): Runtime {
  const config = loadConfig(env);
  const adapters = adaptersFor(config);
  const background = backgroundFor(ctx);
  return {
    config,
    memory: (tenant) =>
      new Memory({
        tenant,
        sessions: adapters.sessions,
        users: adapters.users,
        working: adapters.working,
        facts: adapters.facts,
        summarizer: adapters.summarizer,
        fallbackSummarizer: adapters.fallbackSummarizer,
        ...adapters.deps,
        counter: adapters.counter,
        options: config.memory,
        workingTtlSeconds: config.notesTtlSeconds,
        limits: config.limits,
        now: Date.now,
        newId: () => crypto.randomUUID(),
        logger: jsonLogger,
        background,
      }),
    health: () => probeHealth(config, adapters),
    background,
  };
}

async function probe(check: (() => Promise<unknown>) | null): Promise<{ status: UpstreamStatus; error?: string }> {
  if (!check) return { status: "not_configured" };
  try {
    await check();
    return { status: "ok" };
  } catch (err) {
    return { status: "down", error: err instanceof Error ? err.message.slice(0, 200) : "unknown error" };
  }
}

/** Checks Redis and Vector in parallel through the official clients. */
async function probeHealth(config: Config, adapters: Adapters): Promise<Health> {
  const { redis, vector } = adapters;
  const [r, v] = await Promise.all([probe(redis ? () => redis.ping() : null), probe(vector ? () => vector.info() : null)]);
  const errors = { ...(r.error ? { redis: r.error } : {}), ...(v.error ? { vector: v.error } : {}) };
  return {
    ok: r.status === "ok" && v.status === "ok",
    redis: r.status,
    vector: v.status,
    llm: config.llm ? "configured" : "not_configured",
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
  };
}
