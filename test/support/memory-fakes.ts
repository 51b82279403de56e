/**
 * In-memory fakes of the domain ports for unit tests. The session store follows the contract of
 * the Redis adapter (see test/conformance/stores-session.test.ts): idempotent appends, owner
 * check, compare-and-set compression (epoch, summary version, window prefix), archive limit,
 * reset bumping the epoch, exclusive expiring lock. Every call is counted so tests can check
 * round trips, and any method can be made to fail once.
 */
import { MemoryError } from "../../src/memory/errors.ts";
import type {
  AppendOptions,
  AppendResult,
  CommitOutcome,
  CompressionCommit,
  FactAccess,
  FactPage,
  FactQuery,
  FactScope,
  FactStore,
  HistoryPage,
  ResetResult,
  SessionStore,
  Summarizer,
  SummaryRequest,
} from "../../src/memory/ports.ts";
import type { Fact, SessionMeta, SessionRef, SessionSettings, SessionSnapshot, StoredMessage, Summary, SummaryMethod } from "../../src/memory/types.ts";

interface SessionState {
  system: StoredMessage[];
  window: StoredMessage[];
  archive: StoredMessage[];
  summary: Summary | null;
  meta: SessionMeta | null;
  settings: SessionSettings;
  ids: Set<string>;
}

const clone = <T>(value: T): T => structuredClone(value);
const keyOf = (ref: SessionRef) => `${ref.tenant}\u0000${ref.sessionId}`;
const sum = (messages: readonly StoredMessage[]) => messages.reduce((n, m) => n + m.tokens, 0);

type Failures<M extends string> = Partial<Record<M, unknown>>;

type SessionMethod = keyof SessionStore;

export class InMemorySessionStore implements SessionStore {
  readonly calls: Record<string, number> = {};
  readonly #sessions = new Map<string, SessionState>();
  readonly #epochs = new Map<string, number>();
  readonly #locks = new Map<string, { token: string; expiresAt: number }>();
  readonly #activity = new Map<string, number>();
  readonly #failures: Failures<SessionMethod> = {};
  /** Called inside `commitCompression` before the checks, to interleave other writes. */
  beforeCommit: (() => void) | null = null;

  constructor(readonly now: () => number = Date.now) {}

  /** Makes the next call of `method` throw `error`. */
  failNext(method: SessionMethod, error: unknown = new Error(`${method} failed`)): void {
    this.#failures[method] = error;
  }

  totalCalls(): number {
    return Object.values(this.calls).reduce((a, b) => a + b, 0);
  }

  #enter(method: SessionMethod): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    if (method in this.#failures) {
      const error = this.#failures[method];
      delete this.#failures[method];
      throw error;
    }
  }

  #state(ref: SessionRef, create: boolean): SessionState | undefined {
    const key = keyOf(ref);
    let state = this.#sessions.get(key);
    if (!state && create) {
      state = { system: [], window: [], archive: [], summary: null, meta: null, settings: {}, ids: new Set() };
      this.#sessions.set(key, state);
    }
    return state;
  }

  #snapshot(state: SessionState | undefined): SessionSnapshot {
    if (!state) return { exists: false, system: [], window: [], windowTokens: 0, summary: null, meta: null, settings: {} };
    return clone({
      exists: true,
      system: state.system,
      window: state.window,
      windowTokens: sum(state.window),
      summary: state.summary,
      meta: state.meta,
      settings: state.settings,
    });
  }

  async append(ref: SessionRef, messages: StoredMessage[], options: AppendOptions): Promise<AppendResult> {
    this.#enter("append");
    const existing = this.#state(ref, false);
    const owner = existing?.meta?.userId;
    if (owner !== undefined && options.userId !== undefined && owner !== options.userId) {
      throw new MemoryError("conflict", "session belongs to a different user");
    }
    const state = this.#state(ref, true)!;
    const now = this.now();
    state.meta ??= { createdAt: now, updatedAt: now, epoch: this.#epochs.get(keyOf(ref)) ?? 0 };
    state.meta.updatedAt = now;
    if (state.meta.userId === undefined && options.userId !== undefined) state.meta.userId = options.userId;
    const wanted = messages.filter((m) => m.role === "system").map((m) => m.id);
    const pinned = state.system.map((m) => m.id);
    if (options.replaceSystem && wanted.length > 0 && wanted.join("\u0000") !== pinned.join("\u0000")) {
      for (const id of pinned) state.ids.delete(id);
      state.system.length = 0;
    }
    const added = messages.map((m) => {
      const duplicate = state.ids.has(m.id);
      if (!duplicate) {
        state.ids.add(m.id);
        (m.role === "system" ? state.system : state.window).push(clone(m));
      }
      return { id: m.id, tokens: m.tokens, duplicate };
    });
    this.#activity.set(keyOf(ref), now);
    return {
      added,
      windowCount: state.window.length,
      windowTokens: sum(state.window),
      snapshot: options.withSnapshot ? this.#snapshot(state) : undefined,
    };
  }

  async read(ref: SessionRef): Promise<SessionSnapshot> {
    this.#enter("read");
    return this.#snapshot(this.#state(ref, false));
  }

  async putSettings(ref: SessionRef, settings: SessionSettings): Promise<SessionSettings> {
    this.#enter("putSettings");
    const state = this.#state(ref, true)!;
    state.settings = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
    return clone(state.settings);
  }

  async reset(ref: SessionRef, options: { keepSystem: boolean }): Promise<ResetResult> {
    this.#enter("reset");
    const state = this.#state(ref, false);
    if (!state) return { removedMessages: 0, keptSystem: 0 };
    const removedMessages = state.window.length + (options.keepSystem ? 0 : state.system.length);
    if (!options.keepSystem) state.system = [];
    state.window = [];
    state.archive = [];
    state.summary = null;
    state.ids = new Set(state.system.map((m) => m.id));
    const epoch = (state.meta?.epoch ?? 0) + 1;
    this.#epochs.set(keyOf(ref), epoch);
    if (state.meta) state.meta.epoch = epoch;
    return { removedMessages, keptSystem: state.system.length };
  }

  async destroy(ref: SessionRef): Promise<boolean> {
    this.#enter("destroy");
    const key = keyOf(ref);
    const existed = this.#sessions.delete(key);
    this.#locks.delete(key);
    this.#activity.delete(key);
    return existed;
  }

  async commitCompression(ref: SessionRef, commit: CompressionCommit): Promise<CommitOutcome> {
    this.#enter("commitCompression");
    this.beforeCommit?.();
    const state = this.#state(ref, false);
    if (!state?.meta) return { committed: false, reason: "missing" };
    if (state.meta.epoch !== commit.epoch) return { committed: false, reason: "reset" };
    if ((state.summary?.version ?? 0) !== commit.expectedVersion) return { committed: false, reason: "version_changed" };
    const head = state.window.slice(0, commit.prefixIds.length).map((m) => m.id);
    if (head.length !== commit.prefixIds.length || head.some((id, i) => id !== commit.prefixIds[i])) {
      return { committed: false, reason: "prefix_changed" };
    }
    const removed = state.window.splice(0, commit.prefixIds.length);
    state.archive = commit.archiveLimit > 0 ? [...state.archive, ...removed].slice(-commit.archiveLimit) : [];
    state.summary = clone(commit.summary);
    state.meta.updatedAt = this.now();
    return { committed: true, removedTokens: sum(removed) };
  }

  async acquireLock(ref: SessionRef, token: string, ttlMs: number): Promise<boolean> {
    this.#enter("acquireLock");
    const key = keyOf(ref);
    const held = this.#locks.get(key);
    if (held && held.expiresAt > this.now()) return false;
    this.#locks.set(key, { token, expiresAt: this.now() + ttlMs });
    return true;
  }

  async releaseLock(ref: SessionRef, token: string): Promise<void> {
    this.#enter("releaseLock");
    const key = keyOf(ref);
    if (this.#locks.get(key)?.token === token) this.#locks.delete(key);
  }

  /** Whether someone holds the lock right now (test helper, not a port method). */
  isLocked(ref: SessionRef): boolean {
    const held = this.#locks.get(keyOf(ref));
    return held !== undefined && held.expiresAt > this.now();
  }

  async history(ref: SessionRef, page: { offset: number; limit: number }): Promise<HistoryPage> {
    this.#enter("history");
    const state = this.#state(ref, false);
    const archived = state?.archive ?? [];
    return { summary: clone(state?.summary ?? null), archived: clone(archived.slice(page.offset, page.offset + page.limit)), total: archived.length };
  }

  async userSessions(tenant: string, userId: string): Promise<string[]> {
    this.#enter("userSessions");
    return [...this.#sessions.entries()]
      .filter(([key, s]) => key.startsWith(`${tenant}\u0000`) && s.meta?.userId === userId)
      .map(([key]) => ({ id: key.slice(tenant.length + 1), at: this.#activity.get(key) ?? 0 }))
      .sort((a, b) => b.at - a.at)
      .map((s) => s.id);
  }
}

type FactMethod = keyof FactStore;

/** Character-bigram cosine: crude, deterministic, works for Chinese and English. */
export function bigramCosine(a: string, b: string): number {
  const grams = (text: string) => {
    const clean = text.toLowerCase().replace(/[\s\p{P}]+/gu, " ");
    const counts = new Map<string, number>();
    for (let i = 0; i < clean.length - 1; i++) {
      const g = clean.slice(i, i + 2);
      if (g.trim().length < 2) continue;
      counts.set(g, (counts.get(g) ?? 0) + 1);
    }
    return counts;
  };
  const x = grams(a);
  const y = grams(b);
  let dot = 0;
  for (const [g, n] of x) dot += n * (y.get(g) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, n) => s + n * n, 0));
  const denominator = norm(x) * norm(y);
  return denominator === 0 ? 0 : dot / denominator;
}

/** Scores like Upstash Vector does for COSINE indexes: (1 + cos) / 2, so unrelated texts get 0.5. */
export function upstashStyleScore(query: string, text: string): number {
  return (1 + bigramCosine(query, text)) / 2;
}

export class InMemoryFactStore implements FactStore {
  readonly calls: Record<string, number> = {};
  readonly #facts = new Map<string, Map<string, Fact>>();
  readonly #failures: Failures<FactMethod> = {};

  constructor(readonly similarity: (query: string, text: string) => number = upstashStyleScore) {}

  failNext(method: FactMethod, error: unknown = new Error(`${method} failed`)): void {
    this.#failures[method] = error;
  }

  #enter(method: FactMethod): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    if (method in this.#failures) {
      const error = this.#failures[method];
      delete this.#failures[method];
      throw error;
    }
  }

  #scope(scope: FactScope): Map<string, Fact> {
    const key = `${scope.tenant}\u0000${scope.userId}`;
    let facts = this.#facts.get(key);
    if (!facts) this.#facts.set(key, (facts = new Map()));
    return facts;
  }

  /** Everything stored for a scope (test helper). */
  all(scope: FactScope): Fact[] {
    return clone([...this.#scope(scope).values()]);
  }

  async upsert(scope: FactScope, facts: Fact[]): Promise<void> {
    this.#enter("upsert");
    for (const f of facts) this.#scope(scope).set(f.id, clone(f));
  }

  async query(scope: FactScope, query: FactQuery): Promise<{ fact: Fact; similarity: number }[]> {
    this.#enter("query");
    return [...this.#scope(scope).values()]
      .filter((f) => !query.types || query.types.length === 0 || query.types.includes(f.type))
      .map((f) => ({ fact: clone(f), similarity: this.similarity(query.text, f.text) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, query.topK);
  }

  async get(scope: FactScope, ids: string[]): Promise<(Fact | null)[]> {
    this.#enter("get");
    return ids.map((id) => clone(this.#scope(scope).get(id) ?? null));
  }

  async patch(scope: FactScope, facts: Fact[]): Promise<void> {
    this.#enter("patch");
    for (const f of facts) if (this.#scope(scope).has(f.id)) this.#scope(scope).set(f.id, clone(f));
  }

  async touch(scope: FactScope, accesses: FactAccess[]): Promise<void> {
    this.#enter("touch");
    for (const a of accesses) {
      const f = this.#scope(scope).get(a.id);
      if (f) this.#scope(scope).set(a.id, { ...f, accessCount: a.accessCount, lastAccessedAt: a.lastAccessedAt });
    }
  }

  async delete(scope: FactScope, ids: string[]): Promise<number> {
    this.#enter("delete");
    return ids.filter((id) => this.#scope(scope).delete(id)).length;
  }

  async list(scope: FactScope, cursor: string, limit: number): Promise<FactPage> {
    this.#enter("list");
    const all = [...this.#scope(scope).values()].sort((a, b) => a.id.localeCompare(b.id));
    const start = cursor === "" ? 0 : Number(cursor);
    const facts = clone(all.slice(start, start + limit));
    return { facts, nextCursor: start + limit < all.length ? String(start + limit) : "" };
  }

  async deleteAll(scope: FactScope): Promise<number> {
    this.#enter("deleteAll");
    const n = this.#scope(scope).size;
    this.#scope(scope).clear();
    return n;
  }

  async scopes(): Promise<FactScope[]> {
    this.#enter("scopes");
    return [...this.#facts.entries()]
      .filter(([, facts]) => facts.size > 0)
      .map(([key]) => {
        const [tenant = "", userId = ""] = key.split("\u0000");
        return { tenant, userId };
      });
  }
}

type SummaryStep = (request: SummaryRequest) => { text: string; method?: SummaryMethod } | Promise<{ text: string; method?: SummaryMethod }>;

/**
 * A summarizer that plays `steps` in order (the last one repeats); the default step joins the
 * previous summary and the messages. Every request is recorded.
 */
export class ScriptedSummarizer implements Summarizer {
  readonly requests: SummaryRequest[] = [];
  readonly #steps: SummaryStep[];

  constructor(...steps: SummaryStep[]) {
    this.#steps = steps.length > 0 ? steps : [joinSummary];
  }

  async summarize(request: SummaryRequest): Promise<{ text: string; method: SummaryMethod }> {
    this.requests.push(clone(request));
    const step = this.#steps[Math.min(this.requests.length - 1, this.#steps.length - 1)]!;
    const out = await step(request);
    return { text: out.text, method: out.method ?? "llm" };
  }
}

/** The previous summary plus one `role: content` line per message. */
export function joinSummary(request: SummaryRequest): { text: string } {
  const lines = request.previous ? [request.previous.text] : [];
  for (const m of request.messages) lines.push(`${m.role}: ${m.content}`);
  return { text: lines.join("\n") };
}

let messageSeq = 0;

/** A stored message for tests; `tokens` defaults to the content length. */
export function storedMessage(role: StoredMessage["role"], content: string, extra: Partial<StoredMessage> = {}): StoredMessage {
  messageSeq += 1;
  return { id: `m${messageSeq}`, role, content, tokens: content.length, importance: role === "system" ? 1 : 0.5, ts: messageSeq, ...extra };
}

/** An assistant message calling `ids.length` tools, followed by one result per call. */
export function toolExchange(ids: string[], tokens = 10, extra: Partial<StoredMessage> = {}): StoredMessage[] {
  const call = storedMessage("assistant", "", {
    tokens,
    tool_calls: ids.map((id) => ({ id, type: "function" as const, function: { name: "lookup", arguments: `{"q":"${id}"}` } })),
    ...extra,
  });
  return [call, ...ids.map((id) => storedMessage("tool", `result ${id}`, { tool_call_id: id, tokens, ...extra }))];
}
