import type { AssembledContext } from "./context.ts";
import type { MemoryOptions } from "./options.ts";
import type { AppendResult, FactStore, SessionStore, Summarizer, TokenCounter } from "./ports.ts";
import type { FactType, SessionRef, SummaryMethod } from "./types.ts";
import type { WindowStats } from "./window.ts";

export interface MemoryLogger {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export interface MemoryManagerDeps {
  ref: SessionRef;
  /** The user the request acts for; needed to persist and recall facts. */
  userId?: string | undefined;
  sessions: SessionStore;
  /** Null when long-term memory is not configured. */
  facts: FactStore | null;
  summarizer: Summarizer;
  counter: TokenCounter;
  /** The configured defaults; each session's own settings are laid over them per request. */
  options: MemoryOptions;
  /** Clock in ms. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Ids of messages sent without one, and lock tokens. Default `crypto.randomUUID`. */
  newId?: (() => string) | undefined;
  /** Default: silent. */
  logger?: MemoryLogger | undefined;
}

/** Parts that failed without failing the request. */
export type Degraded = "facts";

export interface AddResult {
  added: AppendResult["added"];
  stats: WindowStats;
  compressionDue: boolean;
  /** Ids of the facts written for persisted user messages. */
  facts: string[];
  degraded: Degraded[];
}

export interface ContextRequest {
  query?: string | undefined;
  /** Token budget. Default `options.budget`. */
  budget?: number | undefined;
  /** Facts to recall. Default `options.recallK`. */
  k?: number | undefined;
  types?: FactType[] | undefined;
}

export interface ContextResult extends AssembledContext {
  stats: WindowStats;
  degraded: Degraded[];
}

export type CompressResult =
  | {
      compressed: true;
      reason: "over_threshold" | "forced";
      /** Messages folded into the summary and removed from the window. */
      removed: number;
      removedTokens: number;
      summaryTokens: number;
      /** Summary tokens / (previous summary + removed) tokens. */
      ratio: number;
      version: number;
      method: SummaryMethod;
    }
  | {
      compressed: false;
      reason:
        | "below_threshold"
        | "nothing_to_compress"
        | "locked"
        | "summarizer_failed"
        | "reset"
        | "version_changed"
        | "prefix_changed"
        | "missing";
      error?: string | undefined;
    };
