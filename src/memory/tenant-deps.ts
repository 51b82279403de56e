/** @module TenantDeps: the ports, options, clock, ids, logger and scheduler the use cases of one tenant need. */
import type { MetricsRecorder } from "./observe/metrics.ts";
import type { TraceRecorder } from "./observe/trace.ts";
import type { MemoryOptions } from "./options.ts";
import type { AuditActor } from "./observe/audit.ts";
import type { AuditLog, EraseJournal, MemoryLogger, MetricsStore, TraceStore } from "./ports/operations.ts";
import type { BackupStore, FactStore, LearningLocks, UserStore } from "./ports/facts.ts";
import type { ChatModel, FactExtractor, RelationKeys, Summarizer, TokenCounter } from "./ports/llm.ts";
import type { SessionStore, WorkingMemoryStore } from "./ports/sessions.ts";

/** Limits every write path enforces, whatever the route. */
export interface MessageLimits {
  /** Most messages one write may carry. */
  maxMessagesPerRequest: number;
  /** Longest message content, in characters. */
  maxMessageChars: number;
}

/**
 * What the use cases of one tenant need: the ports, the options and the runtime's clock, ids,
 * logger and background scheduler. Built per request by the composition root; holds no state.
 */
export interface TenantDeps {
  tenant: string;
  sessions: SessionStore;
  users: UserStore;
  audit: AuditLog;
  eraseJournal: EraseJournal;
  /** Who is calling; the audit log names it. */
  actor: AuditActor;
  working: WorkingMemoryStore;
  /** Null when long-term memory is not configured. */
  facts: FactStore | null;
  /** Null when backups are off (no bucket bound). */
  backups: BackupStore | null;
  summarizer: Summarizer;
  /** Summarizes without an LLM; used after repeated summarizer failures. */
  fallbackSummarizer: Summarizer;
  /** Null when fact extraction is off. */
  extractor: FactExtractor | null;
  /**
   * Learns instead of `extractor` when that one fails upstream (an LLM unreachable, timing out or
   * answering 5xx/429): the offline learner behind the LLM. A malformed answer is not a failure of
   * this kind: it is dropped. Default: none.
   */
  fallbackExtractor?: FactExtractor | null | undefined;
  /**
   * Serializes one user's learning turns (a lock per user); absent or null, turns run as they come
   * (a single-process store). Default: none.
   */
  learningLocks?: LearningLocks | null | undefined;
  /**
   * Reads a fact's single-valued relation (home, job, ...), so learning supersedes every current
   * fact of the relation a new statement sets. Default: none (only what the extractor names).
   */
  relationKeys?: RelationKeys | null | undefined;
  /** Null when no LLM is configured. */
  chat: ChatModel | null;
  /** The token counter, loaded on first use (building it costs CPU, so only requests that count pay). */
  counter(): Promise<TokenCounter>;
  options: MemoryOptions;
  /** Idle TTL of working memory, seconds. */
  workingTtlSeconds: number;
  limits: MessageLimits;
  now(): number;
  newId(): string;
  logger: MemoryLogger;
  /** Hands work to the runtime to finish after the response (`ctx.waitUntil`); failures are logged. */
  background(work: Promise<unknown>): void;
  /** This request's trace (see `trace.ts`). Default: nothing is traced. */
  trace?: TraceRecorder | undefined;
  /** This request's metrics. Default: nothing is counted. */
  metrics?: MetricsRecorder | undefined;
  /** Stored traces (read, and erased with their user, even when tracing is now off); null or absent without Redis. */
  traces?: TraceStore | null | undefined;
  /** Stored metrics; null or absent when there is nowhere to keep them. */
  metricsStore?: MetricsStore | null | undefined;
}
