/** @module SessionMemory: one request's view of a session, appending messages and reading context, with background work queued. */
import type { FactFilter } from "../facts/filter.ts";
import { compressionDueFor, runCompressionPass } from "../compression/pass.ts";
import { assembleFromReads } from "./context-read.ts";
import type { TenantDeps } from "../tenant-deps.ts";
import { candidateDepth, emptyRecall, recallFrom, type RecallOutcome } from "../facts/recall.ts";
import { isFollowUp, turnRecallQuery } from "../facts/recall-query.ts";
import { deliverPendingFacts, learnFromMessages } from "../facts/learning.ts";
import type { AddResult, CompressResult, ContextRequest, ContextResult } from "./requests.ts";
import { checkMessages, datedMessages, messageTimes, type MessageSource } from "./message-rules.ts";
import { resolveSessionOptions } from "../options.ts";
import { factsToPersist } from "../facts/persisted-messages.ts";
import { planBudget } from "../context/budget.ts";
import type { AppendOptions, AppendResult, WindowBound } from "../ports/sessions.ts";
import type { FactScope } from "../ports/facts.ts";
import { isFiller } from "../facts/salience.ts";
import { sessionTitle } from "./session-list.ts";
import type { FactType, IncomingMessage, RecalledFact, SessionRef, SessionSnapshot, StoredMessage } from "../model.ts";
import { NO_METRICS, type MetricsRecorder } from "../observe/metrics.ts";
import { NO_TRACE, timed, type TraceRecorder } from "../observe/trace.ts";
import { toStoredMessage, totalsStats } from "../context/window.ts";
/**
 * The assistant message right before `first` (the first new user message), for the learner's
 * context: from the batch, else from the window the append returned (a chat turn's). Undefined when
 * neither holds one (a plain append reads nothing more for it).
 */
function assistantBefore(
  first: StoredMessage,
  batch: readonly StoredMessage[],
  snapshot: SessionSnapshot | undefined,
): StoredMessage | undefined {
  const before = (list: readonly StoredMessage[]): StoredMessage | undefined => {
    const at = list.findIndex((m) => m.id === first.id);
    if (at <= 0) return undefined;
    const previous = list
      .slice(0, at)
      .filter((m) => m.role !== "system")
      .at(-1);
    return previous?.role === "assistant" && previous.content.trim() !== "" ? previous : undefined;
  };
  return before(batch) ?? (snapshot ? before(snapshot.window) : undefined);
}

/** Options of one append. */
export interface AddOptions {
  /** Also store every user message of the batch as a fact. Default false (per-message `persist`). */
  persist?: boolean | undefined;
  /** The batch's system messages replace differing pinned ones (a client that owns its prompt). */
  replaceSystem?: boolean | undefined;
  /** Leave compression to a later write of the same request (a chat turn stores its reply next). */
  deferCompression?: boolean | undefined;
  /** Fact ids this request recalled; counted in the same atomic step as the append. */
  recalled?: readonly string[] | undefined;
  /** The chat turn this write belongs to (see `AppendOptions.turn`). */
  turn?: AppendOptions["turn"];
  /** See `AppendOptions.unlessErasedSince`. */
  unlessErasedSince?: number | undefined;
  /** See `AppendOptions.retryTag`: a client's automatic retry of a failed request stores nothing twice. */
  retryTag?: string | undefined;
  /** The batch is the model's reply: stored whole, whatever `maxMessageChars` (see `checkMessages`). Default "client". */
  source?: MessageSource | undefined;
}

/**
 * One request's view of one session. It decides when and with whom; the stores hold the state and
 * the pure policies (window, context, compress, facts) do the work. Nothing is kept between
 * requests. Work that may follow a write (fact delivery, learning, compression) goes to the
 * runtime's background queue, never onto the response path.
 */
export class SessionMemory {
  readonly #d: TenantDeps;
  readonly #ref: SessionRef;
  readonly #userId: string | undefined;

  constructor(deps: TenantDeps, session: { sessionId: string; userId?: string | undefined }) {
    this.#d = deps;
    this.#ref = { tenant: deps.tenant, sessionId: session.sessionId };
    this.#userId = session.userId;
  }

  get ref(): SessionRef {
    return this.#ref;
  }

  get #trace(): TraceRecorder {
    return this.#d.trace ?? NO_TRACE;
  }

  get #metrics(): MetricsRecorder {
    return this.#d.metrics ?? NO_METRICS;
  }

  /** Where this request's facts live; null without a user or a fact store. */
  get #scope(): FactScope | null {
    return this.#d.facts && this.#userId ? { tenant: this.#d.tenant, userId: this.#userId } : null;
  }

  /**
   * One append in one round trip. The owner check runs first inside the store's atomic step, so a
   * write naming another user changes nothing; persisted user messages are queued as facts in
   * that same step and delivered to long-term memory right after the response.
   */
  async add(messages: IncomingMessage[], options: AddOptions = {}): Promise<AddResult> {
    const { appended, result } = await this.#append(messages, options, undefined);
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
    const bound = this.#bound(request.budget);
    const snapshotOf = (r: { appended: AppendResult }): SessionSnapshot => {
      if (!r.appended.snapshot) throw new Error("the session store returned no snapshot");
      return r.appended.snapshot;
    };
    await this.#factsReady(request);
    const [appended, context] = await this.#withRecall(this.#append(messages, options, bound), snapshotOf, request);
    return { add: { ...appended.result, stats: context.stats }, context, snapshot: snapshotOf(appended) };
  }

  /** What a read for a context of `budget` needs of the window (see WindowBound). */
  #bound(budget: number | undefined): WindowBound {
    const { options } = this.#d;
    const allowance = planBudget(budget ?? options.budget, options.shares).available;
    return { allowance, limit: options.window, importanceThreshold: options.importanceThreshold };
  }

  async #append(messages: IncomingMessage[], options: AddOptions, bound: WindowBound | undefined) {
    checkMessages(messages, this.#d.limits, options.source);
    const { sessions, options: defaults } = this.#d;
    const counter = await this.#d.counter();
    const now = this.#d.now();
    const times = messageTimes(messages, now);
    const stored = messages.map((m, i) => ({ ...toStoredMessage(m, { counter, now, newId: this.#d.newId }), ts: times[i] ?? now }));
    const scope = this.#scope;
    const persistAll = options.persist === true;
    const persisting = { persistAll, sessionId: this.#ref.sessionId, now, redact: defaults.redact };
    const facts = scope ? await factsToPersist({ scope, incoming: messages, stored, ...persisting }) : [];
    const appended = await timed(
      this.#trace,
      "redis.append",
      this.#d.now,
      sessions.append(this.#ref, stored, {
        userId: this.#userId,
        ttlSeconds: defaults.sessionTtlSeconds,
        withSnapshot: bound,
        replaceSystem: options.replaceSystem,
        facts,
        recalled: scope ? options.recalled : undefined,
        turn: options.turn,
        title: sessionTitle(messages),
        retryTag: options.retryTag,
        unlessErasedSince: options.unlessErasedSince,
        dated: datedMessages(messages),
      }),
    );
    const fresh = appended.added.filter((a) => !a.duplicate);
    this.#metrics.sessionGrew(this.#ref.sessionId, fresh.length);
    this.#metrics.count(
      "tokens",
      fresh.reduce((sum, a) => sum + a.tokens, 0),
    );
    const compressionDue = compressionDueFor(appended.totals, resolveSessionOptions(defaults, appended.settings));
    const result = {
      added: appended.added,
      compressionDue,
      facts: facts.map((f) => f.id),
      ...(options.turn ? { outcome: appended.outcome ?? null } : {}),
    };
    this.#afterAppend(messages, stored, result, persistAll, options.deferCompression === true, now, appended.snapshot);
    return { appended, result };
  }

  /** Schedules what follows an append: delivery of queued facts, learning, compression. */
  #afterAppend(
    incoming: readonly IncomingMessage[],
    stored: readonly StoredMessage[],
    result: Omit<AddResult, "stats">,
    persistAll: boolean,
    deferCompression: boolean,
    now: number,
    snapshot: SessionSnapshot | undefined,
  ): void {
    const { background, logger } = this.#d;
    const session = this.#ref.sessionId;
    const scope = this.#scope;
    if (scope && result.facts.length > 0) background(deliverPendingFacts(this.#d, scope, now));
    if (result.compressionDue && !deferCompression) {
      background(this.maybeCompress().then((outcome) => logger.debug("background compression", { session, ...outcome })));
    }
    if (!scope || !this.#d.extractor) return;
    // Every user message reaches the learner, which decides what is worth keeping, except filler
    // (a greeting, an acknowledgement, an emoji: never a memory, so not worth a Vector query or an
    // LLM call), persisted messages (facts already, as sent) and duplicates (learned the first time).
    const fresh = stored.filter((m, i) => {
      const sent = incoming[i];
      const added = result.added[i];
      return m.role === "user" && sent && !sent.persist && !persistAll && added && !added.duplicate && !isFiller(m.content);
    });
    if (fresh.length === 0) return;
    const context = assistantBefore(fresh[0]!, stored, snapshot);
    const messages = context ? [context, ...fresh] : fresh;
    background(learnFromMessages(this.#d, { scope, sessionId: session, messages, scheduledAt: now }));
  }

  /**
   * One session read, in parallel with one fact query when there is a query and a user. Recalled
   * facts go into the returned messages only. A failed fact query still answers, flagged `degraded`.
   */
  async getContext(request: ContextRequest = {}): Promise<ContextResult> {
    await this.#factsReady(request);
    const read = timed(this.#trace, "redis.read", this.#d.now, this.#d.sessions.read(this.#ref, this.#bound(request.budget)));
    const [, context] = await this.#withRecall(read, (snapshot) => snapshot, request);
    return context;
  }

  /**
   * Before a request that recalls: a fact store that does not fit the deployment refuses it (503
   * naming what to fix) before anything is written, instead of answering degraded. Instant once
   * the store is known to fit.
   */
  async #factsReady(request: ContextRequest): Promise<void> {
    if ((request.query?.trim() ?? "") === "" || (request.k ?? this.#d.options.recallK) <= 0) return;
    await this.#d.facts?.ready?.();
  }

  /** Runs a session round trip and the fact recall in parallel, then assembles the context. */
  async #withRecall<T>(
    roundTrip: Promise<T>,
    snapshotOf: (value: T) => SessionSnapshot,
    request: ContextRequest,
  ): Promise<[T, ContextResult]> {
    const { options } = this.#d;
    const query = request.query?.trim() ?? "";
    const k = request.k ?? options.recallK;
    const wanted = query !== "" && k > 0 && this.#d.facts !== null;
    // Without a user named in the request the session's stored owner is the user: known only after
    // the read, so that recall follows it (a second round trip, only for requests without userId).
    const ownerRecall = async (): Promise<RecallOutcome> => {
      const owner = snapshotOf(await roundTrip).meta?.userId;
      return owner ? this.recallOutcome(query, k, request.types, owner, request.filter) : emptyRecall(options);
    };
    // A follow-up asked in /chat: its earlier turns come with the session, so the recall follows it.
    const followUpRecall = async (): Promise<RecallOutcome> => {
      const snapshot = snapshotOf(await roundTrip);
      const window = snapshot.window;
      const earlier = window.at(-1)?.content === query ? window.slice(0, -1) : window;
      const user = this.#userId ?? snapshot.meta?.userId;
      return user ? this.recallOutcome(turnRecallQuery(query, earlier), k, request.types, user, request.filter) : emptyRecall(options);
    };
    const recalling = !wanted
      ? Promise.resolve(emptyRecall(options))
      : request.followUpFromWindow && isFollowUp(query)
        ? followUpRecall()
        : this.#userId
          ? this.recallOutcome(query, k, request.types, undefined, request.filter)
          : ownerRecall();
    const [session, recalled, counter] = await Promise.allSettled([roundTrip, recalling, this.#d.counter()]);
    if (session.status === "rejected") throw session.reason;
    if (counter.status === "rejected") throw counter.reason;
    const context = assembleFromReads(this.#d, {
      ref: this.#ref,
      snapshot: snapshotOf(session.value),
      recalled,
      counter: counter.value,
      request,
      wanted,
      userId: this.#userId,
      trace: this.#trace,
      metrics: this.#metrics,
    });
    return [session.value, context];
  }

  /** Long-term search, relevance first (see `selectRecalled`). Empty without a user or a fact store. */
  async recall(query: string, k = this.#d.options.recallK, types?: FactType[]): Promise<RecalledFact[]> {
    return (await this.recallOutcome(query, k, types)).facts;
  }

  /** {@link recall} with every dropped candidate and its verdict (for traces). */
  async recallOutcome(
    query: string,
    k = this.#d.options.recallK,
    types?: FactType[],
    userId?: string,
    filter?: FactFilter,
  ): Promise<RecallOutcome> {
    const facts = this.#d.facts;
    const scope = userId !== undefined && facts ? { tenant: this.#d.tenant, userId } : this.#scope;
    const { options } = this.#d;
    if (!scope || !facts || k <= 0) return emptyRecall(options);
    const outcome = await timed(
      this.#trace,
      "vector.query",
      this.#d.now,
      recallFrom(facts, scope, query, { k, types, filter, now: this.#d.now(), options }),
    );
    this.#trace.recall({ userId: scope.userId, query, k, topK: candidateDepth(k), types, outcome });
    return outcome;
  }

  /**
   * Folds the window prefix into the rolling summary when the window is over its token threshold
   * (or when forced). The lock only saves duplicate summarizer calls; the compare-and-set commit
   * is what keeps every message: if the session changed meanwhile, nothing is committed. After
   * `summaryFailureLimit` consecutive failures the extractive summarizer takes over, so a failing
   * LLM cannot let the window grow without bound.
   */
  async maybeCompress(flags: { force?: boolean | undefined } = {}): Promise<CompressResult> {
    return runCompressionPass(this.#d, this.#ref, this.#metrics, flags);
  }
}
