/** @module The wiring: which adapter serves which port, built once per configuration. */
import type { Redis } from "@upstash/redis/cloudflare";
import type { Index } from "@upstash/vector/cloudflare";
import type OpenAI from "openai";
import { createOpenAIClient } from "../llm/openai-client.ts";
import { OpenAIChatModel } from "../llm/openai-chat.ts";
import { embedTexts } from "../llm/openai-embedder.ts";
import { OpenAIFactExtractor } from "../llm/openai-extractor.ts";
import { HeuristicFactExtractor } from "../llm/heuristic-extractor.ts";
import { OfflineRelationKeys } from "../llm/offline-learner/relation-keys.ts";
import { OpenAISummarizer } from "../llm/openai-summarizer.ts";
import { loadTokenCounter } from "../llm/tokenizer.ts";
import type { TenantDeps } from "../memory/tenant-deps.ts";
import { ExtractiveSummarizer } from "../memory/compression/index.ts";
import type {
  AuditLog,
  EraseJournal,
  MetricsStore,
  TraceStore,
  BackupStore,
  FactStore,
  UserStore,
  SessionStore,
  WorkingMemoryStore,
  Summarizer,
  TokenCounter,
  RateLimiter,
  RunLock,
} from "../memory/ports/index.ts";
import { RedisAuditLog } from "../stores/audit-log.ts";
import { RedisEraseJournal } from "../stores/erase-journal.ts";
import { RedisLearningLocks } from "../stores/learning-locks.ts";
import { CRON_KEYS } from "../stores/keys.ts";
import { RedisRunLock } from "../stores/run-lock.ts";
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
import type { Config } from "./config/parse.ts";
import { guardUpstream, unconfigured } from "./upstream-errors.ts";

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
  /** The cron's cleanup run lock, one run at a time across the deployment (null without Redis). */
  cleanupLock: RunLock | null;
  /** Seals fields at rest with the configured keys (passes text through when there are none). */
  cipher: FieldCipher;
  summarizer: Summarizer;
  fallbackSummarizer: Summarizer;
  deps: Pick<TenantDeps, "extractor" | "fallbackExtractor" | "chat" | "learningLocks" | "relationKeys">;
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
    cleanupLock: redis ? guardUpstream(new RedisRunLock(redis, CRON_KEYS.cleanupLock), "redis") : null,
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
      // One learning turn per user at a time; the cron's duplicate repair takes the same lock.
      learningLocks: redis ? guardUpstream(new RedisLearningLocks(redis), "redis") : null,
      relationKeys: new OfflineRelationKeys(),
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

/** The backup store on the `BACKUPS` bucket binding (sealed like everything else), or null without one. */
export function backupsFor(env: object, config: Config, adapters: Adapters): BackupStore | null {
  const bucket = (env as { BACKUPS?: BackupBucket }).BACKUPS;
  if (!bucket) return null;
  // Two small objects per request: cheaper than a cache keyed by both the bucket and the configuration.
  return guardUpstream(new R2BackupStore(bucket, { retention: config.backups.retention, cipher: adapters.cipher }), "backups");
}
