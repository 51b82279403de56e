import { planCompression } from "./compress.ts";
import { assembleContext } from "./context.ts";
import { mergeFact, rankRecalled } from "./facts.ts";
import { recordAccess } from "./lifecycle.ts";
import type { AddResult, CompressResult, ContextRequest, ContextResult, Degraded, MemoryLogger, MemoryManagerDeps } from "./manager-types.ts";
import { resolveSessionOptions } from "./options.ts";
import { factsToPersist } from "./persist.ts";
import type { FactScope } from "./ports.ts";
import { produceSummary } from "./rolling-summary.ts";
import type { FactType, IncomingMessage, RecalledFact, SessionSnapshot } from "./types.ts";
import { toStoredMessage, windowStats } from "./window.ts";

export type { AddResult, CompressResult, ContextRequest, ContextResult, Degraded, MemoryLogger, MemoryManagerDeps } from "./manager-types.ts";

const silent: MemoryLogger = { info() {}, warn() {}, error() {} };
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One request's view of a session's memory. It decides when and with whom; the stores hold the
 * state and the pure modules (window, context, compress, facts) do the work. Nothing is kept
 * between requests.
 */
export class MemoryManager {
  readonly #d: MemoryManagerDeps;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #log: MemoryLogger;

  constructor(deps: MemoryManagerDeps) {
    this.#d = deps;
    this.#now = deps.now ?? Date.now;
    this.#newId = deps.newId ?? (() => crypto.randomUUID());
    this.#log = deps.logger ?? silent;
  }

  /** Where this request's facts live; null without a user or a fact store. */
  get #scope(): FactScope | null {
    return this.#d.facts && this.#d.userId ? { tenant: this.#d.ref.tenant, userId: this.#d.userId } : null;
  }

  /**
   * One append (one round trip, returning the snapshot). Persisted user messages become facts in
   * one upsert that runs first: if long-term memory is down the request fails before anything is
   * written (no partial write), and a retry with the same ids converges (fact ids are content
   * hashes, message ids are idempotent).
   */
  async add(messages: IncomingMessage[], options: { persist?: boolean | undefined } = {}): Promise<AddResult> {
    const { snapshot, added, facts } = await this.#append(messages, options.persist === true);
    const resolved = resolveSessionOptions(this.#d.options, snapshot.settings);
    return {
      added,
      stats: windowStats(snapshot, resolved),
      compressionDue: planCompression(snapshot, resolved).due,
      facts,
      degraded: [],
    };
  }

  /**
   * A chat turn's first step: the append and the context it needs come back from the same Redis
   * round trip, with the fact recall running in parallel.
   */
  async addWithContext(
    messages: IncomingMessage[],
    request: ContextRequest = {},
    options: { replaceSystem?: boolean | undefined } = {},
  ): Promise<{ add: AddResult; context: ContextResult; snapshot: SessionSnapshot }> {
    const [appended, context] = await this.#withRecall(this.#append(messages, false, options.replaceSystem), (r) => r.snapshot, request);
    const { snapshot, added, facts } = appended;
    const resolved = resolveSessionOptions(this.#d.options, snapshot.settings);
    return {
      add: { added, stats: context.stats, compressionDue: planCompression(snapshot, resolved).due, facts, degraded: [] },
      context,
      snapshot,
    };
  }

  async #append(messages: IncomingMessage[], persistAll: boolean, replaceSystem = false) {
    const { counter, sessions, ref, facts: factStore } = this.#d;
    const now = this.#now();
    const stored = messages.map((m) => toStoredMessage(m, { counter, now, newId: this.#newId }));
    const scope = this.#scope;
    let facts = scope ? await factsToPersist({ scope, incoming: messages, stored, persistAll, sessionId: ref.sessionId, now }) : [];
    if (scope && factStore && facts.length > 0) {
      // A restatement refreshes the stored fact (creation time, use count, history survive).
      const existing = await factStore.get(scope, facts.map((f) => f.id));
      facts = facts.map((fact, i) => {
        const current = existing[i];
        return current ? mergeFact(current, fact, now) : fact;
      });
      await factStore.upsert(scope, facts);
    }
    const appended = await sessions.append(ref, stored, {
      userId: this.#d.userId,
      ttlSeconds: this.#d.options.sessionTtlSeconds,
      withSnapshot: true,
      replaceSystem,
    });
    // A store that ignores withSnapshot costs a second round trip here.
    const snapshot = appended.snapshot ?? (await sessions.read(ref));
    return { snapshot, added: appended.added, facts: facts.map((f) => f.id) };
  }

  /**
   * One session read, in parallel with one fact query when there is a query and a user. Recalled
   * facts go into the returned messages only. A failed fact query still answers, flagged `degraded`.
   */
  async getContext(request: ContextRequest = {}): Promise<ContextResult> {
    const [, context] = await this.#withRecall(this.#d.sessions.read(this.#d.ref), (snapshot) => snapshot, request);
    return context;
  }

  /** Runs a session round trip and the fact recall in parallel, then assembles the context. */
  async #withRecall<T>(
    roundTrip: Promise<T>,
    snapshotOf: (value: T) => SessionSnapshot,
    request: ContextRequest,
  ): Promise<[T, ContextResult]> {
    const { ref, options, counter } = this.#d;
    const query = request.query?.trim() ?? "";
    const k = request.k ?? options.recallK;
    const [session, recalled] = await Promise.allSettled([
      roundTrip,
      query !== "" && k > 0 ? this.recall(query, k, request.types) : Promise.resolve([]),
    ]);
    if (session.status === "rejected") throw session.reason;
    const degraded: Degraded[] = [];
    if (recalled.status === "rejected") {
      degraded.push("facts");
      this.#log.warn("fact recall failed; answering without facts", { session: ref.sessionId, error: errorText(recalled.reason) });
    }
    const snapshot = snapshotOf(session.value);
    const resolved = resolveSessionOptions(options, snapshot.settings);
    const context = assembleContext({
      system: snapshot.system,
      summary: snapshot.summary,
      facts: recalled.status === "fulfilled" ? recalled.value : [],
      window: snapshot.window,
      options: resolved,
      budget: request.budget,
      counter,
    });
    return [session.value, { ...context, stats: windowStats(snapshot, resolved), degraded }];
  }

  /** Long-term search ranked by similarity, value and recency. Empty without a user or a fact store. */
  async recall(query: string, k = this.#d.options.recallK, types?: FactType[]): Promise<RecalledFact[]> {
    const scope = this.#scope;
    if (!scope || !this.#d.facts || k <= 0) return [];
    const topK = Math.min(100, Math.max(k * 3, k + 5)); // ranking reorders, so look a little deeper
    const candidates = await this.#d.facts.query(scope, { text: query, topK, types });
    const { options } = this.#d;
    return rankRecalled(candidates, { k, minScore: options.minRecallScore, types, now: this.#now(), options });
  }

  /** Records that facts were recalled (access count, last access); meant for background work. */
  async touchRecalled(recalled: readonly RecalledFact[]): Promise<void> {
    const scope = this.#scope;
    if (!scope || !this.#d.facts || recalled.length === 0) return;
    const now = this.#now();
    await this.#d.facts.touch(
      scope,
      recalled.map((r) => {
        const { id, accessCount, lastAccessedAt } = recordAccess(r.fact, now);
        return { id, accessCount, lastAccessedAt };
      }),
    );
  }

  /**
   * Folds the window prefix into the rolling summary when the window is over its token threshold
   * (or when forced). The lock only saves duplicate summarizer calls; the compare-and-set commit
   * is what keeps every message: if the session changed meanwhile, nothing is committed.
   */
  async maybeCompress(flags: { force?: boolean | undefined } = {}): Promise<CompressResult> {
    const { sessions, ref, options } = this.#d;
    const snapshot = await sessions.read(ref);
    if (!snapshot.meta) return { compressed: false, reason: "nothing_to_compress" };
    const resolved = resolveSessionOptions(options, snapshot.settings);
    const plan = planCompression(snapshot, resolved, flags);
    if (!plan.due) return { compressed: false, reason: plan.reason };

    const token = this.#newId();
    if (!(await sessions.acquireLock(ref, token, options.lockTtlMs))) return { compressed: false, reason: "locked" };
    try {
      const summary = await produceSummary({
        summarizer: this.#d.summarizer,
        counter: this.#d.counter,
        previous: snapshot.summary,
        prefix: plan.prefix,
        maxTokens: resolved.summaryMaxTokens,
        tokensBefore: plan.tokensBefore,
        now: this.#now(),
        onWarning: (message, data) => this.#log.warn(message, { session: ref.sessionId, ...data }),
      });
      if ("error" in summary) {
        this.#log.error("summarizer failed; session unchanged", { session: ref.sessionId, error: summary.error });
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
        this.#log.info("compression not committed", { session: ref.sessionId, reason: outcome.reason });
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
        this.#log.warn("lock release failed; it expires on its own", { session: ref.sessionId, error: errorText(error) });
      });
    }
  }
}
