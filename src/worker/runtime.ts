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
import type { AuditActor } from "../memory/observe/index.ts";
import type { TenantDeps } from "../memory/tenant-deps.ts";
import { ExtractiveSummarizer } from "../memory/compression/index.ts";
import { TenantMemory } from "../memory/tenant-memory.ts";
import type {
  AuditLog,
  EraseJournal,
  MemoryLogger,
  MetricsStore,
  TraceStore,
  BackupStore,
  FactStore,
  UserStore,
  SessionStore,
  WorkingMemoryStore,
  Summarizer,
  TokenCounter,
} from "../memory/ports/index.ts";
import type { RateLimiter } from "../http/middleware/rate-limit.ts";
import { RedisAuditLog } from "../stores/audit-log.ts";
import { RedisEraseJournal } from "../stores/erase-journal.ts";
import { UpstashRateLimiter } from "../stores/rate-limiter.ts";
import { R2BackupStore, type BackupBucket } from "../stores/backup-store.ts";
import { RedisContentIndex } from "../stores/content-index.ts";
import { ContentIndexedFactStore } from "../stores/content-indexed-facts.ts";
import { VectorFactStore } from "../stores/facts-vector.ts";
import { checkedFactStore, VectorIndexCheck } from "../stores/vector-index-check.ts";
import { RedisMetricsStore } from "../stores/metrics-store.ts";
import { RedisSessionStore } from "../stores/session-store.ts";
import { RedisTraceStore } from "../stores/trace-store.ts";
import { RedisUserStore } from "../stores/user-store.ts";
import { RedisWorkingMemoryStore } from "../stores/working-memory-store.ts";
import { FieldCipher } from "../stores/sealed/cipher.ts";
import { SealedSessionStore } from "../stores/sealed/sealed-session-store.ts";
import { SealedUserStore } from "../stores/sealed/sealed-user-store.ts";
import { sealedVectorIndex } from "../stores/sealed/sealed-vector-index.ts";
import { SealedTraceStore } from "../stores/sealed/sealed-trace-store.ts";
import { SealedWorkingMemoryStore } from "../stores/sealed/sealed-working-store.ts";
import { createIndex, createRedis } from "./clients.ts";
import { loadConfig, type Config } from "./config.ts";
import { jsonLogger } from "./log.ts";
import { RequestObservation, requestLogger } from "./request-observation.ts";
import { guardUpstream, unconfigured } from "./upstream-errors.ts";

export type UpstreamStatus = "ok" | "down" | "not_configured" | "misconfigured";

export interface Health {
  ok: boolean;
  redis: UpstreamStatus;
  vector: UpstreamStatus;
  llm: "configured" | "not_configured";
  /** `off` without a `BACKUPS` bucket binding. */
  backups: "configured" | "off";
  errors?: { redis?: string; vector?: string };
}

/** What one request may use: the configuration, the use cases of a tenant, the health probes. */
export interface Runtime {
  config: Config;
  /** The use cases of one tenant for this request, on behalf of `actor` (the audit log names it). */
  memory(tenant: string, actor: AuditActor): TenantMemory;
  /** Null when `RATE_LIMIT` is unset or Redis is not configured. */
  rateLimiter: RateLimiter | null;
  health(): Promise<Health>;
  /** Hands work to `ctx.waitUntil`; failures are logged, never thrown. */
  background(work: Promise<unknown>): void;
  /** This request's id, trace, metrics and log context. */
  observe: RequestObservation;
  /** Logs with the request's id, tenant and session. */
  logger: MemoryLogger;
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
  audit: AuditLog;
  eraseJournal: EraseJournal;
  rateLimiter: RateLimiter | null;
  facts: FactStore | null;
  /** Whether the Vector index fits the configuration (null without Vector). */
  vectorCheck: VectorIndexCheck | null;
  traces: TraceStore | null;
  metrics: MetricsStore | null;
  /** Seals fields at rest with the configured keys (passes text through when there are none). */
  cipher: FieldCipher;
  summarizer: Summarizer;
  fallbackSummarizer: Summarizer;
  deps: Pick<TenantDeps, "extractor" | "fallbackExtractor" | "chat">;
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
  const embed =
    config.embeddings === "openai" && openai
      ? (texts: string[]) => embedTexts(openai, config.embeddingModel, texts, config.embeddingDimensions)
      : undefined;
  const counter = () => loadTokenCounter({ encoding: config.tokenizer });
  // The extractive summarizer needs the counter; it is built on first use like everything that counts.
  const extractive: Summarizer = { summarize: async (request) => new ExtractiveSummarizer(await counter()).summarize(request) };
  const redisMissing = "Redis is not configured (UPSTASH_REDIS_REST_URL / _TOKEN)";
  // The sealing decorators stay on without keys: then they seal nothing, but a value sealed under a
  // key that is gone from the configuration still fails with a clear error instead of showing ciphertext.
  const cipher = new FieldCipher(config.encryptionKeys);
  const vectorCheck = vector && config.vector ? indexCheck(config, config.vector.url, vector) : null;
  const adapters: Adapters = {
    redis,
    vector,
    sessions: redis
      ? new SealedSessionStore(guardUpstream(new RedisSessionStore(redis), "redis"), cipher)
      : unconfigured<SessionStore>("redis", redisMissing),
    users: redis
      ? new SealedUserStore(guardUpstream(new RedisUserStore(redis), "redis"), cipher)
      : unconfigured<UserStore>("redis", redisMissing),
    working: redis
      ? new SealedWorkingMemoryStore(guardUpstream(new RedisWorkingMemoryStore(redis), "redis"), cipher)
      : unconfigured<WorkingMemoryStore>("redis", redisMissing),
    audit: redis
      ? guardUpstream(new RedisAuditLog(redis, { maxEntries: config.auditMaxEntries }), "redis")
      : unconfigured<AuditLog>("redis", redisMissing),
    eraseJournal: redis ? guardUpstream(new RedisEraseJournal(redis), "redis") : unconfigured<EraseJournal>("redis", redisMissing),
    rateLimiter: redis && config.rateLimit ? new UpstashRateLimiter(redis, config.rateLimit) : null,
    facts:
      vector && vectorCheck
        ? checkedFactStore(
            indexedFacts(
              guardUpstream(
                new VectorFactStore(sealedVectorIndex(vector, cipher, { sealMetadata: config.sealFactMetadata }), {
                  embed,
                  retrieval: config.memory.retrieval,
                  fusion: config.memory.fusion,
                }),
                "vector",
              ),
              redis,
            ),
            vectorCheck,
          )
        : null,
    vectorCheck,
    traces: redis ? new SealedTraceStore(guardUpstream(new RedisTraceStore(redis), "redis"), cipher) : null,
    metrics: redis ? guardUpstream(new RedisMetricsStore(redis), "redis") : null,
    cipher,
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
      // Behind the LLM learner: an LLM failing upstream does not stop learning.
      fallbackExtractor: config.factExtraction === "llm" && openai ? new HeuristicFactExtractor() : null,
    },
    counter,
  };
  adapterCache.set(config, adapters);
  return adapters;
}

/** The check of the index against `VECTOR_INDEX` and the embedding settings (its `info` guarded like every Vector call). */
function indexCheck(config: Config, url: string, vector: Index): VectorIndexCheck {
  const index = guardUpstream({ info: () => vector.info() }, "vector");
  return new VectorIndexCheck({
    index: url,
    expected: {
      retrieval: config.memory.retrieval,
      embeddings: config.embeddings,
      embeddingModel: config.embeddingModel,
      embeddingDimensions: config.embeddingDimensions,
    },
    info: () => index.info(),
  });
}

/** The fact store behind the user's content index in Redis (a new fact then costs one Vector request). */
function indexedFacts(facts: FactStore, redis: Redis | null): FactStore {
  return redis ? new ContentIndexedFactStore(facts, guardUpstream(new RedisContentIndex(redis), "redis")) : facts;
}

/** Background work for `ctx.waitUntil`: failures are logged, never thrown. */
export function backgroundFor(ctx: BackgroundContext | undefined, logger: MemoryLogger = jsonLogger): (work: Promise<unknown>) => void {
  return (work) => {
    const guarded = work.catch((err: unknown) => logger.error("background work failed", { error: String(err) }));
    if (ctx) ctx.waitUntil(guarded);
  };
}

/** The backup store on the `BACKUPS` bucket binding (sealed like everything else), or null without one. */
export function backupsFor(env: object, config: Config, adapters: Adapters): BackupStore | null {
  const bucket = (env as { BACKUPS?: BackupBucket }).BACKUPS;
  if (!bucket) return null;
  // Two small objects per request: cheaper than a cache keyed by both the bucket and the configuration.
  return guardUpstream(new R2BackupStore(bucket, { retention: config.backups.retention, cipher: adapters.cipher }), "backups");
}

/** Builds the runtime of one request from the Worker's bindings. Throws `ConfigError` on bad config. */
export function createRuntime(
  env: object,
  ctx: BackgroundContext | undefined,
  request: { requestId?: string; session?: string | undefined } = {},
): Runtime {
  const config = loadConfig(env);
  const adapters = adaptersFor(config);
  const requestId = request.requestId ?? crypto.randomUUID();
  let observe: RequestObservation | null = null;
  const logger = requestLogger(jsonLogger, () => ({ requestId, ...observe?.logContext }));
  const writeBehind = backgroundFor(ctx, logger);
  observe = new RequestObservation({
    requestId,
    traceTtlSeconds: config.traceTtlSeconds,
    traces: adapters.traces,
    metrics: adapters.metrics,
    logger,
    now: Date.now,
    newId: () => crypto.randomUUID(),
    background: writeBehind,
  });
  const observation = observe;
  if (request.session) observation.logContext.session = request.session;
  // What background work counts (a compression after the response) is written when it ends.
  const background = (work: Promise<unknown>): void => writeBehind(work.finally(() => observation.flushMetrics()));
  const backups = backupsFor(env, config, adapters);
  return {
    config,
    rateLimiter: adapters.rateLimiter,
    memory: (tenant, actor) =>
      new TenantMemory({
        tenant,
        actor,
        sessions: adapters.sessions,
        users: adapters.users,
        audit: adapters.audit,
        eraseJournal: adapters.eraseJournal,
        working: adapters.working,
        facts: adapters.facts,
        backups,
        summarizer: adapters.summarizer,
        fallbackSummarizer: adapters.fallbackSummarizer,
        ...adapters.deps,
        counter: adapters.counter,
        options: config.memory,
        workingTtlSeconds: config.notesTtlSeconds,
        limits: config.limits,
        now: Date.now,
        newId: () => crypto.randomUUID(),
        logger,
        background,
        trace: observation.trace,
        metrics: observation.metrics,
        traces: adapters.traces,
        metricsStore: adapters.metrics,
      }),
    health: () => probeHealth(config, adapters, backups !== null),
    background,
    observe: observation,
    logger,
  };
}

async function probe<T>(check: (() => Promise<T>) | null): Promise<{ status: UpstreamStatus; error?: string; value?: T }> {
  if (!check) return { status: "not_configured" };
  try {
    return { status: "ok", value: await check() };
  } catch (err) {
    return { status: "down", error: err instanceof Error ? err.message.slice(0, 200) : "unknown error" };
  }
}

/**
 * Checks Redis and Vector in parallel through the official clients; Vector's `info` is also held
 * against the configuration (`misconfigured`, with what to set, when the index does not fit).
 */
async function probeHealth(config: Config, adapters: Adapters, backups: boolean): Promise<Health> {
  const { redis, vector, vectorCheck } = adapters;
  const [r, probed] = await Promise.all([
    probe(redis ? () => redis.ping() : null),
    probe(vector ? () => vector.info().then((info) => vectorCheck?.record(info) ?? null) : null),
  ]);
  const mismatch = probed.status === "ok" ? probed.value : null;
  const v = mismatch ? { status: "misconfigured" as const, error: mismatch } : probed;
  const errors = { ...(r.error ? { redis: r.error } : {}), ...(v.error ? { vector: v.error } : {}) };
  return {
    ok: r.status === "ok" && v.status === "ok",
    redis: r.status,
    vector: v.status,
    llm: config.llm ? "configured" : "not_configured",
    backups: backups ? "configured" : "off",
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
  };
}
