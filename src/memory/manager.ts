import { compressionRatio, planCompression } from "./compress.ts";
import { assembleContext, type AssembledContext } from "./context.ts";
import { createFact, factId, isSalient, rankRecalled } from "./facts.ts";
import { recordAccess } from "./lifecycle.ts";
import { resolveSessionOptions, type MemoryOptions } from "./options.ts";
import type { AppendResult, FactScope, FactStore, SessionStore, Summarizer, TokenCounter } from "./ports.ts";
import { fitTextHead } from "./text-fit.ts";
import type { Fact, FactType, IncomingMessage, RecalledFact, SessionRef, SessionSnapshot, StoredMessage, Summary, SummaryMethod } from "./types.ts";
import { toStoredMessage, windowStats, type WindowStats } from "./window.ts";

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
  options: MemoryOptions;
  /** Clock in ms. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Ids of messages without one, and lock tokens. Default `crypto.randomUUID`. */
  newId?: (() => string) | undefined;
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
      removed: number;
      removedTokens: number;
      summaryTokens: number;
      ratio: number;
      version: number;
      method: SummaryMethod;
    }
  | {
      compressed: false;
      reason: "below_threshold" | "nothing_to_compress" | "locked" | "summarizer_failed" | "reset" | "version_changed" | "prefix_changed" | "missing";
      error?: string | undefined;
    };

const silent: MemoryLogger = { info() {}, warn() {}, error() {} };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One request's view of a session's memory. It decides when and with whom: the stores hold the
 * state, the pure modules (window, context, compress, facts) do the work. Nothing is kept between
 * requests.
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

  get #scope(): FactScope | null {
    return this.#d.facts && this.#d.userId ? { tenant: this.#d.ref.tenant, userId: this.#d.userId } : null;
  }

  /** Appends in one round trip; persisted user messages also become facts (one upsert, in parallel). */
  async add(messages: IncomingMessage[], options: { persist?: boolean | undefined } = {}): Promise<AddResult> {
    const { counter, sessions, ref } = this.#d;
    const now = this.#now();
    const stored = messages.map((m) => toStoredMessage(m, { counter, now, newId: this.#newId }));
    const facts = await this.#factsToPersist(messages, stored, options.persist === true, now);
    const scope = this.#scope;
    const [appended, upserted] = await Promise.allSettled([
      sessions.append(ref, stored, { userId: this.#d.userId, ttlSeconds: this.#d.options.sessionTtlSeconds, withSnapshot: true }),
      facts.length > 0 && scope && this.#d.facts ? this.#d.facts.upsert(scope, facts) : Promise.resolve(),
    ]);
    if (appended.status === "rejected") throw appended.reason;
    const degraded: Degraded[] = [];
    if (upserted.status === "rejected") {
      degraded.push("facts");
      this.#log.warn("fact upsert failed", { session: ref.sessionId, error: errorText(upserted.reason) });
    }
    const snapshot = appended.value.snapshot ?? (await sessions.read(ref));
    const resolved = resolveSessionOptions(this.#d.options, snapshot.settings);
    return {
      added: appended.value.added,
      stats: windowStats(snapshot, resolved),
      compressionDue: planCompression(snapshot, resolved).due,
      facts: degraded.length > 0 ? [] : facts.map((f) => f.id),
      degraded,
    };
  }

  async #factsToPersist(incoming: IncomingMessage[], stored: StoredMessage[], persistAll: boolean, now: number): Promise<Fact[]> {
    const scope = this.#scope;
    if (!scope) return [];
    const facts = new Map<string, Fact>();
    for (const [i, m] of incoming.entries()) {
      const text = m.content.trim();
      if (m.role !== "user" || !(persistAll || m.persist) || text === "") continue;
      const salience = isSalient(text);
      const id = await factId(scope, text);
      const draft = {
        text,
        type: salience.salient ? salience.type : ("fact" as const),
        importance: m.importance ?? (salience.salient ? salience.importance : 0.5),
        sourceSession: this.#d.ref.sessionId,
        sourceMessage: stored[i]?.id,
      };
      facts.set(id, createFact(id, draft, now));
    }
    return [...facts.values()];
  }

  /** One session read, in parallel with one fact query when there is a query and a user. */
  async getContext(request: ContextRequest = {}): Promise<ContextResult> {
    const { sessions, ref, options, counter } = this.#d;
    const query = request.query?.trim() ?? "";
    const k = request.k ?? options.recallK;
    const [read, recalled] = await Promise.allSettled([
      sessions.read(ref),
      query !== "" && k > 0 ? this.recall(query, k, request.types) : Promise.resolve([]),
    ]);
    if (read.status === "rejected") throw read.reason;
    const degraded: Degraded[] = [];
    if (recalled.status === "rejected") {
      degraded.push("facts");
      this.#log.warn("fact recall failed; answering without facts", { session: ref.sessionId, error: errorText(recalled.reason) });
    }
    const snapshot = read.value;
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
    return { ...context, stats: windowStats(snapshot, resolved), degraded };
  }

  /** Long-term search, ranked by similarity, value and recency. Empty without a user or a fact store. */
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
    await this.#d.facts.patch(scope, recalled.map((r) => recordAccess(r.fact, now)));
  }

  /**
   * Folds the window prefix into the rolling summary when the window is over its token threshold
   * (or when forced). A lock saves duplicate summarizer calls; the compare-and-set commit is what
   * keeps every message: if anything changed meanwhile, nothing is committed.
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
      const summary = await this.#summarize(snapshot, plan.prefix, resolved.summaryMaxTokens, plan.tokensBefore);
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

  /** The new summary within `maxTokens`: as written, else condensed once more, else cut. */
  async #summarize(
    snapshot: SessionSnapshot,
    prefix: StoredMessage[],
    maxTokens: number,
    tokensBefore: number,
  ): Promise<Summary | { error: string }> {
    const { summarizer, counter } = this.#d;
    const previous = snapshot.summary;
    const now = this.#now();
    const build = (text: string, tokens: number, method: SummaryMethod): Summary => ({
      text,
      tokens,
      method,
      version: (previous?.version ?? 0) + 1,
      covered: (previous?.covered ?? 0) + prefix.length,
      updatedAt: now,
      lastRatio: compressionRatio(tokens, tokensBefore),
    });
    let draft: Summary;
    try {
      const first = await summarizer.summarize({ previous, messages: prefix, maxTokens });
      const text = first.text.trim();
      if (text === "") return { error: "the summarizer returned an empty summary" };
      draft = build(text, counter.count(text), first.method);
    } catch (error) {
      return { error: errorText(error) };
    }
    if (draft.tokens <= maxTokens) return draft;

    try {
      const again = await summarizer.summarize({ previous: draft, messages: [], maxTokens });
      const text = again.text.trim();
      if (text !== "") draft = build(text, counter.count(text), again.method);
    } catch (error) {
      this.#log.warn("re-condensing the summary failed; cutting it instead", { error: errorText(error) });
    }
    if (draft.tokens <= maxTokens) return draft;
    const cut = fitTextHead(draft.text, maxTokens, counter);
    this.#log.warn("summary over its limit was cut", { tokens: draft.tokens, maxTokens });
    if (cut.text.trim() === "") return { error: "the summary does not fit summaryMaxTokens" };
    return build(cut.text, cut.tokens, draft.method);
  }
}
