import { planCompression } from "./compress.ts";
import { assembleContext } from "./context.ts";
import type { MemoryDeps } from "./deps.ts";
import { emptyRecall, isFollowUp, recallFrom, turnRecallQuery, type RecallOutcome } from "./recall.ts";
import { deliverPendingFacts, learnFromMessages } from "./learn.ts";
import type { AddResult, CompressResult, ContextRequest, ContextResult, Degraded } from "./manager-types.ts";
import { checkMessages } from "./message-rules.ts";
import { resolveSessionOptions } from "./options.ts";
import { factsToPersist } from "./persist.ts";
import type { AppendOptions, FactScope } from "./ports.ts";
import { produceSummary } from "./rolling-summary.ts";
import { isSalient } from "./salience.ts";
import { sessionTitle } from "./session-list.ts";
import type { FactType, IncomingMessage, RecalledFact, SessionRef, SessionSnapshot, StoredMessage } from "./types.ts";
import { toStoredMessage, windowStats } from "./window.ts";

export type { AddResult, CompressResult, ContextRequest, ContextResult, Degraded } from "./manager-types.ts";

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
}

/**
 * One request's view of one session. It decides when and with whom; the stores hold the state and
 * the pure policies (window, context, compress, facts) do the work. Nothing is kept between
 * requests. Work that may follow a write (fact delivery, learning, compression) goes to the
 * runtime's background queue, never onto the response path.
 */
export class MemoryManager {
  readonly #d: MemoryDeps;
  readonly #ref: SessionRef;
  readonly #userId: string | undefined;

  constructor(deps: MemoryDeps, session: { sessionId: string; userId?: string | undefined }) {
    this.#d = deps;
    this.#ref = { tenant: deps.tenant, sessionId: session.sessionId };
    this.#userId = session.userId;
  }

  get ref(): SessionRef {
    return this.#ref;
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
    const { snapshot, result } = await this.#append(messages, options);
    return { ...result, stats: windowStats(snapshot, resolveSessionOptions(this.#d.options, snapshot.settings)) };
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
    const [appended, context] = await this.#withRecall(this.#append(messages, options), (r) => r.snapshot, request);
    return { add: { ...appended.result, stats: context.stats }, context, snapshot: appended.snapshot };
  }

  async #append(messages: IncomingMessage[], options: AddOptions) {
    checkMessages(messages, this.#d.limits);
    const { sessions, options: defaults } = this.#d;
    const counter = await this.#d.counter();
    const now = this.#d.now();
    const stored = messages.map((m) => toStoredMessage(m, { counter, now, newId: this.#d.newId }));
    const scope = this.#scope;
    const persistAll = options.persist === true;
    const facts = scope ? await factsToPersist({ scope, incoming: messages, stored, persistAll, sessionId: this.#ref.sessionId, now }) : [];
    const appended = await sessions.append(this.#ref, stored, {
      userId: this.#userId,
      ttlSeconds: defaults.sessionTtlSeconds,
      withSnapshot: true,
      replaceSystem: options.replaceSystem,
      facts,
      recalled: scope ? options.recalled : undefined,
      turn: options.turn,
      title: sessionTitle(messages),
    });
    // A store that ignores withSnapshot costs a second round trip here.
    const snapshot = appended.snapshot ?? (await sessions.read(this.#ref));
    const compressionDue = planCompression(snapshot, resolveSessionOptions(defaults, snapshot.settings)).due;
    const result = { added: appended.added, compressionDue, facts: facts.map((f) => f.id), ...(options.turn ? { outcome: appended.outcome ?? null } : {}) };
    this.#afterAppend(messages, stored, result, persistAll, options.deferCompression === true, now);
    return { snapshot, result };
  }

  /** Schedules what follows an append: delivery of queued facts, learning, compression. */
  #afterAppend(
    incoming: readonly IncomingMessage[],
    stored: readonly StoredMessage[],
    result: Omit<AddResult, "stats">,
    persistAll: boolean,
    deferCompression: boolean,
    now: number,
  ): void {
    const { background, logger } = this.#d;
    const session = this.#ref.sessionId;
    const scope = this.#scope;
    if (scope && result.facts.length > 0) background(deliverPendingFacts(this.#d, scope, now));
    if (result.compressionDue && !deferCompression) {
      background(this.maybeCompress().then((outcome) => logger.info("background compression", { session, ...outcome })));
    }
    if (!scope || !this.#d.extractor) return;
    // Persisted messages are facts already; duplicates were learned from the first time. The
    // salience gate keeps small talk from costing a Vector query or an LLM call.
    const fresh = stored.filter((m, i) => {
      const sent = incoming[i];
      const added = result.added[i];
      return m.role === "user" && sent && !sent.persist && !persistAll && added && !added.duplicate && isSalient(m.content).salient;
    });
    if (fresh.length > 0) background(learnFromMessages(this.#d, { scope, sessionId: session, messages: fresh, scheduledAt: now }));
  }

  /**
   * One session read, in parallel with one fact query when there is a query and a user. Recalled
   * facts go into the returned messages only. A failed fact query still answers, flagged `degraded`.
   */
  async getContext(request: ContextRequest = {}): Promise<ContextResult> {
    const [, context] = await this.#withRecall(this.#d.sessions.read(this.#ref), (snapshot) => snapshot, request);
    return context;
  }

  /** Runs a session round trip and the fact recall in parallel, then assembles the context. */
  async #withRecall<T>(roundTrip: Promise<T>, snapshotOf: (value: T) => SessionSnapshot, request: ContextRequest): Promise<[T, ContextResult]> {
    const { options } = this.#d;
    const query = request.query?.trim() ?? "";
    const k = request.k ?? options.recallK;
    const wanted = query !== "" && k > 0 && this.#d.facts !== null;
    // Without a user named in the request the session's stored owner is the user: known only after
    // the read, so that recall follows it (a second round trip, only for requests without userId).
    const ownerRecall = async (): Promise<RecallOutcome> => {
      const owner = snapshotOf(await roundTrip).meta?.userId;
      return owner ? this.recallOutcome(query, k, request.types, owner) : emptyRecall(options);
    };
    // A follow-up asked in /chat: its earlier turns come with the session, so the recall follows it.
    const followUpRecall = async (): Promise<RecallOutcome> => {
      const snapshot = snapshotOf(await roundTrip);
      const window = snapshot.window;
      const earlier = window.at(-1)?.content === query ? window.slice(0, -1) : window;
      const user = this.#userId ?? snapshot.meta?.userId;
      return user ? this.recallOutcome(turnRecallQuery(query, earlier), k, request.types, user) : emptyRecall(options);
    };
    const recalling = !wanted
      ? Promise.resolve(emptyRecall(options))
      : request.followUpFromWindow && isFollowUp(query)
        ? followUpRecall()
        : this.#userId
          ? this.recallOutcome(query, k, request.types)
          : ownerRecall();
    const [session, recalled, counter] = await Promise.allSettled([roundTrip, recalling, this.#d.counter()]);
    if (session.status === "rejected") throw session.reason;
    if (counter.status === "rejected") throw counter.reason;
    const degraded: Degraded[] = [];
    if (recalled.status === "rejected") {
      degraded.push("facts");
      this.#d.logger.warn("fact recall failed; answering without facts", { session: this.#ref.sessionId, error: errorText(recalled.reason) });
    }
    const snapshot = snapshotOf(session.value);
    const resolved = resolveSessionOptions(options, snapshot.settings);
    const context = assembleContext({
      system: snapshot.system,
      summary: snapshot.summary,
      facts: recalled.status === "fulfilled" ? recalled.value.facts : [],
      sessionId: this.#ref.sessionId,
      window: snapshot.window,
      options: resolved,
      budget: request.budget,
      counter: counter.value,
    });
    if (request.countRecalls !== false) this.#countRecalls(context.facts, this.#userId ?? snapshot.meta?.userId);
    const recall = recalled.status === "fulfilled" ? recalled.value : emptyRecall(options);
    return [session.value, { ...context, stats: windowStats(snapshot, resolved), degraded, recall }];
  }

  /** Recalls that reached a context are counted in Redis (merged into Vector by the cron). */
  #countRecalls(recalled: readonly RecalledFact[], userId: string | undefined): void {
    const scope = this.#d.facts && userId ? { tenant: this.#d.tenant, userId } : null;
    if (!scope || recalled.length === 0) return;
    this.#d.background(this.#d.users.recordRecalls(scope, recalled.map((r) => r.fact.id), this.#d.now()));
  }

  /** Long-term search, relevance first (see `selectRecalled`). Empty without a user or a fact store. */
  async recall(query: string, k = this.#d.options.recallK, types?: FactType[]): Promise<RecalledFact[]> {
    return (await this.recallOutcome(query, k, types)).facts;
  }

  /** {@link recall} with every dropped candidate and its verdict (for traces). */
  async recallOutcome(query: string, k = this.#d.options.recallK, types?: FactType[], userId?: string): Promise<RecallOutcome> {
    const facts = this.#d.facts;
    const scope = userId !== undefined && facts ? { tenant: this.#d.tenant, userId } : this.#scope;
    const { options } = this.#d;
    if (!scope || !facts || k <= 0) return emptyRecall(options);
    return recallFrom(facts, scope, query, { k, types, now: this.#d.now(), options });
  }

  /**
   * Folds the window prefix into the rolling summary when the window is over its token threshold
   * (or when forced). The lock only saves duplicate summarizer calls; the compare-and-set commit
   * is what keeps every message: if the session changed meanwhile, nothing is committed. After
   * `summaryFailureLimit` consecutive failures the extractive summarizer takes over, so a failing
   * LLM cannot let the window grow without bound.
   */
  async maybeCompress(flags: { force?: boolean | undefined } = {}): Promise<CompressResult> {
    const { sessions, options, logger } = this.#d;
    const ref = this.#ref;
    const snapshot = await sessions.read(ref);
    if (!snapshot.meta) return { compressed: false, reason: "nothing_to_compress" };
    const resolved = resolveSessionOptions(options, snapshot.settings);
    const plan = planCompression(snapshot, resolved, flags);
    if (!plan.due) return { compressed: false, reason: plan.reason };

    const token = this.#d.newId();
    if (!(await sessions.acquireLock(ref, token, options.lockTtlMs))) return { compressed: false, reason: "locked" };
    try {
      const limit = resolved.summaryFailureLimit;
      const fallback = limit > 0 && snapshot.meta.summaryFailures >= limit;
      const summary = await produceSummary({
        summarizer: fallback ? this.#d.fallbackSummarizer : this.#d.summarizer,
        counter: await this.#d.counter(),
        previous: snapshot.summary,
        prefix: plan.prefix,
        maxTokens: resolved.summaryMaxTokens,
        tokensBefore: plan.tokensBefore,
        now: this.#d.now(),
        onWarning: (message, data) => logger.warn(message, { session: ref.sessionId, ...data }),
      });
      if ("error" in summary) {
        const failures = await sessions.recordSummaryFailure(ref);
        logger.error("summarizer failed; session unchanged", { session: ref.sessionId, error: summary.error, failures });
        return { compressed: false, reason: "summarizer_failed", error: summary.error };
      }
      const outcome = await sessions.commitCompression(ref, {
        epoch: snapshot.meta.epoch,
        expectedVersion: snapshot.summary?.version ?? 0,
        prefixIds: plan.prefix.map((m) => m.id),
        summary,
        archiveLimit: options.archiveLimit,
        ttlSeconds: resolved.sessionTtlSeconds,
      });
      if (!outcome.committed) {
        logger.info("compression not committed", { session: ref.sessionId, reason: outcome.reason });
        return { compressed: false, reason: outcome.reason };
      }
      return {
        compressed: true,
        reason: plan.reason,
        removed: plan.prefix.length,
        removedTokens: outcome.removedTokens,
        summaryTokens: summary.tokens,
        ratio: summary.lastRatio,
        version: summary.version,
        method: summary.method,
      };
    } finally {
      await sessions.releaseLock(ref, token).catch((error: unknown) => {
        logger.warn("lock release failed; it expires on its own", { session: ref.sessionId, error: errorText(error) });
      });
    }
  }
}
