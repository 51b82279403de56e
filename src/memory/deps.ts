import type { MemoryOptions } from "./options.ts";
import type {
  BackupStore,
  ChatModel,
  FactExtractor,
  FactStore,
  MemoryLogger,
  SessionStore,
  Summarizer,
  TokenCounter,
  UserStore,
  WorkingMemoryStore,
} from "./ports.ts";

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
export interface MemoryDeps {
  tenant: string;
  sessions: SessionStore;
  users: UserStore;
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
}
