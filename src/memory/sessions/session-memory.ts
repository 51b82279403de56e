/** @module SessionMemory: one request's view of a session, appending messages and reading context, with background work queued. */
import { readContext, recallOutcome, withRecall, factsReady, windowBound, type ContextReadDeps } from "../context/context-read.ts";
import { totalsStats } from "../context/window.ts";
import type { FactFilter } from "../facts/filter.ts";
import type { RecallOutcome } from "../facts/recall.ts";
import type { FactType, IncomingMessage, RecalledFact, SessionRef, SessionSnapshot } from "../model.ts";
import { resolveSessionOptions } from "../options.ts";
import { appendToSession, compressSessionWindow, type AddOptions, type AppendDeps, type Appended } from "./append.ts";
import type { AddResult, CompressResult, ContextRequest, ContextResult, SessionTarget } from "./requests.ts";

export type { AddOptions } from "./append.ts";

/** What one session's memory runs on: an append and what follows it, and a context read. */
export type SessionMemoryDeps = AppendDeps & ContextReadDeps;

/**
 * One request's view of one session. It decides when and with whom; the stores hold the state and
 * the pure policies (window, context, compress, facts) do the work. Nothing is kept between
 * requests. Work that may follow a write (fact delivery, learning, compression) goes to the
 * runtime's background queue, never onto the response path.
 */
export class SessionMemory {
  readonly #d: SessionMemoryDeps;
  readonly #target: SessionTarget;

  constructor(deps: SessionMemoryDeps, session: { sessionId: string; userId?: string | undefined }) {
    this.#d = deps;
    this.#target = { ref: { tenant: deps.tenant, sessionId: session.sessionId }, userId: session.userId };
  }

  get ref(): SessionRef {
    return this.#target.ref;
  }

  /** One append in one round trip (see `appendToSession`); learning and compression follow in the background. */
  async add(messages: IncomingMessage[], options: AddOptions = {}): Promise<AddResult> {
    const { appended, result } = await appendToSession(this.#d, this.#target, messages, options, undefined);
    return { ...result, stats: totalsStats(appended.totals, resolveSessionOptions(this.#d.options, appended.settings)) };
  }

  /**
   * A chat turn's first step: the append and the context it needs come back from the same Redis
   * round trip, with the fact recall running in parallel.
   */
  async addWithContext(
    messages: IncomingMessage[],
    request: ContextRequest = {},
    options: AddOptions = {},
  ): Promise<{ add: AddResult; context: ContextResult; snapshot: SessionSnapshot }> {
    const bound = windowBound(this.#d.options, request.budget);
    const snapshotOf = (r: Appended): SessionSnapshot => {
      if (!r.appended.snapshot) throw new Error("the session store returned no snapshot");
      return r.appended.snapshot;
    };
    await factsReady(this.#d, request);
    const appending = appendToSession(this.#d, this.#target, messages, options, bound);
    const [appended, context] = await withRecall(this.#d, this.#target, appending, snapshotOf, request);
    return { add: { ...appended.result, stats: context.stats }, context, snapshot: snapshotOf(appended) };
  }

  /** The session's context within its budget, with the user's facts recalled for the query (see `readContext`). */
  getContext(request: ContextRequest = {}): Promise<ContextResult> {
    return readContext(this.#d, this.#target, request);
  }

  /** Long-term search, relevance first (see `selectRecalled`). Empty without a user or a fact store. */
  async recall(query: string, k = this.#d.options.recallK, types?: FactType[]): Promise<RecalledFact[]> {
    return (await this.recallOutcome(query, k, types)).facts;
  }

  /** {@link recall} with every dropped candidate and its verdict (for traces). */
  recallOutcome(
    query: string,
    k = this.#d.options.recallK,
    types?: FactType[],
    userId?: string,
    filter?: FactFilter,
  ): Promise<RecallOutcome> {
    return recallOutcome(this.#d, this.#target, { query, k, types, userId, filter });
  }

  /** Folds the window prefix into the rolling summary when due or forced (see `runCompressionPass`). */
  maybeCompress(flags: { force?: boolean | undefined } = {}): Promise<CompressResult> {
    return compressSessionWindow(this.#d, this.#target, flags);
  }
}
