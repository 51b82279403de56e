/** @module Request and result types of the session use cases (append, context, compress). */
import type { FactFilter } from "../facts/filter.ts";
import type { RecallOutcome } from "../facts/recall.ts";
import type { AssembledContext } from "../context/assemble.ts";
import type { AppendResult } from "../ports/sessions.ts";
import type { FactType, SessionRef, SummaryMethod, TurnOutcome } from "../model.ts";
import type { WindowStats } from "../context/window.ts";

/** The session a call acts on, and the user it acts for (undefined: the session's stored owner, where one is needed). */
export interface SessionTarget {
  ref: SessionRef;
  userId: string | undefined;
}

/** Parts that failed without failing the request. */
export type Degraded = "facts";

export interface AddResult {
  added: AppendResult["added"];
  stats: WindowStats;
  compressionDue: boolean;
  /** Ids of the facts queued for persisted user messages (they reach long-term memory right after). */
  facts: string[];
  /** With a turn key: the outcome recorded for it (earlier, or by this write), else null. */
  outcome?: TurnOutcome | null | undefined;
}

export interface ContextRequest {
  query?: string | undefined;
  /** Token budget. Default `options.budget`. */
  budget?: number | undefined;
  /** Facts to recall. Default `options.recallK`. */
  k?: number | undefined;
  types?: FactType[] | undefined;
  /** Agent, time and metadata of the recalled facts (see `FactFilter`). */
  filter?: FactFilter | undefined;
  /**
   * Count the recalls in a background Redis request. Default true; a chat turn passes false and
   * counts them in the append that stores its reply instead.
   */
  countRecalls?: boolean | undefined;
  /**
   * The query is a chat message whose earlier turns only the session holds: a short follow-up
   * ("and her birthday?") is then searched with the window's last turns (see `turnRecallQuery`),
   * after the session round trip instead of beside it. Default false.
   */
  followUpFromWindow?: boolean | undefined;
}

export interface ContextResult extends AssembledContext {
  stats: WindowStats;
  degraded: Degraded[];
  /** The recall behind `facts`: kept facts, dropped candidates with their verdicts, the gate. */
  recall: RecallOutcome;
}

export type CompressResult =
  | {
      compressed: true;
      reason: "over_threshold" | "forced";
      /**
       * One pass folds at most `COMPRESSION_PASS` of the oldest messages: true when the window is
       * still over its threshold after it (forced: when more than `keep` messages are left), so
       * another pass has work.
       */
      more: boolean;
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
