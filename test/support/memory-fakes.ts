/**
 * In-memory fakes of the domain ports for unit tests. The session store follows the contract of
 * the Redis adapter (see test/stores/session.test.ts): idempotent appends, owner
 * check, compare-and-set compression (epoch, summary version, window prefix), archive limit,
 * reset bumping the epoch, exclusive expiring lock. Every call is counted so tests can check
 * round trips, and any method can be made to fail once.
 */
import type { AuditEntry } from "../../src/memory/observe/audit.ts";
import { MemoryError } from "../../src/memory/errors.ts";
import { matchesFilter } from "../../src/memory/facts/filter.ts";
import { orphanToolMessage } from "../../src/memory/sessions/message-rules.ts";
import { TURN_OUTCOMES_KEPT } from "../../src/memory/ports/sessions.ts";
import { snapshotTotals } from "../../src/memory/context/window.ts";
import type { AuditLog, EraseJob, EraseJournal, EraseOutcome, ErasePart, ErasedCounts } from "../../src/memory/ports/operations.ts";
import type {
  ContentMatch,
  ContentRef,
  FactAccess,
  FactMatches,
  FactRefresh,
  FactPage,
  FactQuery,
  FactScope,
  FactStore,
  RecallCount,
  UserStore,
} from "../../src/memory/ports/facts.ts";
import type {
  AppendOptions,
  AppendResult,
  CommitOutcome,
  CompressionCommit,
  HistoryPage,
  IndexSweep,
  ResetResult,
  SessionDump,
  SessionIdPage,
  SessionStore,
  SettingsChange,
  UserSessionsErased,
} from "../../src/memory/ports/sessions.ts";
import type { Summarizer, SummaryRequest } from "../../src/memory/ports/llm.ts";
import type {
  Fact,
  SessionMeta,
  SessionRef,
  SessionSettings,
  SessionSnapshot,
  StoredMessage,
  Summary,
  SummaryMethod,
  TurnOutcome,
} from "../../src/memory/model.ts";

interface SessionState {
  system: StoredMessage[];
  window: StoredMessage[];
  archive: StoredMessage[];
  summary: Summary | null;
  meta: SessionMeta | null;
  settings: SessionSettings;
  ids: Set<string>;
  notes: number;
  /** Turn outcomes by key, oldest first (a Map keeps insertion order). */
  turns: Map<string, TurnOutcome>;
  /** Call ids of the newest assistant tool call still open for results. */
  calls: string[];
  title: string | null;
  /** Retry tag of the last batch that stored something (see `AppendOptions.retryTag`). */
  tail?: string | undefined;
}

/** The tool-call ids a message makes (`a`) or answers (`t`), as the append script reads its kind. */
function callsOf(m: StoredMessage): { tag: "s" | "w" | "a" | "t"; ids: string[] } {
  if (m.role === "system") return { tag: "s", ids: [] };
  if (m.role === "assistant" && m.tool_calls && m.tool_calls.length > 0) return { tag: "a", ids: m.tool_calls.map((c) => c.id) };
  if (m.role === "tool" && m.tool_call_id !== undefined) return { tag: "t", ids: [m.tool_call_id] };
  return { tag: "w", ids: [] };
}

const clone = <T>(value: T): T => structuredClone(value);
const keyOf = (ref: SessionRef) => `${ref.tenant}\u0000${ref.sessionId}`;
const userKey = (tenant: string, userId: string) => `${tenant}\u0000${userId}`;
const sum = (messages: readonly StoredMessage[]) => messages.reduce((n, m) => n + m.tokens, 0);

type Failures<M extends string> = Partial<Record<M, unknown>>;

type SessionMethod = keyof SessionStore;

/** Ids of a sorted-by-activity index, newest first. */
const newestFirst = (index: Map<string, number>): string[] => [...index.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);

export class InMemorySessionStore implements SessionStore {
  readonly calls: Record<string, number> = {};
  readonly #sessions = new Map<string, SessionState>();
  readonly #epochs = new Map<string, number>();
  readonly #locks = new Map<string, { token: string; expiresAt: number }>();
  /** Per tenant: session id -> last activity; per (tenant, user): the same; per tenant: session -> owner. */
  readonly #tenantIndex = new Map<string, Map<string, number>>();
  readonly #userIndex = new Map<string, Map<string, number>>();
  readonly #owners = new Map<string, Map<string, string>>();
  readonly #failures: Failures<SessionMethod> = {};
  /** Where queued facts go (the Redis adapter writes them in the append script). */
  users: InMemoryUserStore | null = null;
  /** Where an erase's counts go (the Redis adapter counts them in the erase script). */
  journal: InMemoryEraseJournal | null = null;
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

  /** Drops a session's data but not its index entries, as an idle TTL does (test helper). */
  expire(ref: SessionRef): void {
    this.#sessions.delete(keyOf(ref));
  }

  #enter(method: SessionMethod): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    if (method in this.#failures) {
      const error = this.#failures[method];
      delete this.#failures[method];
      throw error;
    }
  }

  #map<V>(maps: Map<string, Map<string, V>>, key: string): Map<string, V> {
    let map = maps.get(key);
    if (!map) maps.set(key, (map = new Map()));
    return map;
  }

  #state(ref: SessionRef, create: boolean): SessionState | undefined {
    const key = keyOf(ref);
    let state = this.#sessions.get(key);
    if (!state && create) {
      state = {
        system: [],
        window: [],
        archive: [],
        summary: null,
        meta: null,
        settings: {},
        ids: new Set(),
        notes: 0,
        turns: new Map(),
        calls: [],
        title: null,
      };
      this.#sessions.set(key, state);
    }
    return state;
  }

  #snapshot(state: SessionState | undefined): SessionSnapshot {
    if (!state) return { exists: false, system: [], window: [], windowTokens: 0, summary: null, meta: null, settings: {} };
    return clone({
      exists: state.meta !== null,
      system: state.system,
      window: state.window,
      windowTokens: sum(state.window),
      summary: state.summary,
      meta: state.meta,
      settings: state.settings,
    });
  }

  #touch(ref: SessionRef, state: SessionState, now: number): void {
    state.meta ??= { createdAt: now, updatedAt: now, epoch: this.#epochs.get(keyOf(ref)) ?? 0, summaryFailures: 0 };
    state.meta.updatedAt = now;
    this.#map(this.#tenantIndex, ref.tenant).set(ref.sessionId, now);
    const owner = state.meta.userId;
    if (owner !== undefined) this.#map(this.#userIndex, userKey(ref.tenant, owner)).set(ref.sessionId, now);
  }

  async append(ref: SessionRef, messages: StoredMessage[], options: AppendOptions): Promise<AppendResult> {
    this.#enter("append");
    const existing = this.#state(ref, false);
    const owner = existing?.meta?.userId;
    if (owner !== undefined && options.userId !== undefined && owner !== options.userId) {
      throw new MemoryError("conflict", "session belongs to a different user");
    }
    const checked = options.userId ?? owner;
    if (options.unlessErasedSince !== undefined && checked !== undefined) {
      const erased = this.users?.tombstone({ tenant: ref.tenant, userId: checked }) ?? null;
      if (erased !== null && erased >= options.unlessErasedSince)
        throw new MemoryError("conflict", "the user was erased while this turn ran");
    }
    // Like the script: the recorded outcome and the tool-call pairing are checked before any write.
    const key = options.turn?.key;
    const prior = key === undefined ? undefined : existing?.turns.get(key);
    const retried = prior === undefined && options.retryTag !== undefined && existing?.tail === options.retryTag;
    let open = existing?.calls ?? [];
    if (!prior && !retried) {
      const seen = new Set<string>();
      messages.forEach((m, i) => {
        if (!seen.has(m.id) && !existing?.ids.has(m.id)) {
          const { tag, ids } = callsOf(m);
          if (tag === "a") open = ids;
          else if (tag === "t" && !open.includes(ids[0] ?? "")) throw orphanToolMessage(i, m.tool_call_id ?? "(none)");
          else if (tag === "w") open = [];
        }
        seen.add(m.id);
      });
    }
    const state = this.#state(ref, true)!;
    const now = this.now();
    this.#touch(ref, state, now);
    const meta = state.meta!;
    if (meta.userId === undefined && options.userId !== undefined) {
      meta.userId = options.userId;
      const owners = this.#map(this.#owners, ref.tenant);
      const previous = owners.get(ref.sessionId);
      if (previous !== undefined && previous !== options.userId)
        this.#map(this.#userIndex, userKey(ref.tenant, previous)).delete(ref.sessionId);
      owners.set(ref.sessionId, options.userId);
      this.#map(this.#userIndex, userKey(ref.tenant, options.userId)).set(ref.sessionId, now);
    }
    if (!retried && options.facts && options.facts.length > 0 && options.userId !== undefined) {
      this.users?.queue({ tenant: ref.tenant, userId: options.userId }, options.facts);
    }
    if (options.recalled && options.recalled.length > 0 && options.userId !== undefined) {
      void this.users?.recordRecalls({ tenant: ref.tenant, userId: options.userId }, options.recalled, now);
    }
    const wanted = messages.filter((m) => m.role === "system").map((m) => m.id);
    const pinned = state.system.map((m) => m.id);
    if (!prior && options.replaceSystem && wanted.length > 0 && wanted.join("\u0000") !== pinned.join("\u0000")) {
      for (const id of pinned) state.ids.delete(id);
      state.system.length = 0;
    }
    const added = messages.map((m) => {
      const duplicate = prior !== undefined || retried || state.ids.has(m.id);
      if (!duplicate) {
        state.ids.add(m.id);
        (m.role === "system" ? state.system : state.window).push(clone(m));
      }
      return { id: m.id, tokens: m.tokens, duplicate };
    });
    let outcome = prior ?? null;
    if (added.some((a) => !a.duplicate)) {
      state.calls = open;
      state.tail = options.retryTag;
      if (options.title !== undefined && options.title !== "") state.title ??= options.title;
      if (key !== undefined && options.turn?.outcome) {
        state.turns.set(key, clone(options.turn.outcome));
        if (state.turns.size > TURN_OUTCOMES_KEPT) state.turns.delete(state.turns.keys().next().value as string);
        outcome = options.turn.outcome;
      }
    }
    return {
      added,
      windowCount: state.window.length,
      windowTokens: sum(state.window),
      totals: snapshotTotals(state),
      settings: clone(state.settings),
      snapshot: options.withSnapshot ? this.#snapshot(state) : undefined,
      ...(options.turn ? { outcome: outcome === null ? null : clone(outcome) } : {}),
    };
  }

  async owner(ref: SessionRef): Promise<string | null> {
    this.#enter("owner");
    return this.#state(ref, false)?.meta?.userId ?? null;
  }

  /** The whole window always (a bound only limits what a store must return). */
  async read(ref: SessionRef): Promise<SessionSnapshot> {
    this.#enter("read");
    return this.#snapshot(this.#state(ref, false));
  }

  async readPage(ref: SessionRef, page: { offset: number; limit: number }): Promise<SessionSnapshot> {
    this.#enter("readPage");
    const snapshot = this.#snapshot(this.#state(ref, false));
    const totals = snapshotTotals(snapshot);
    return {
      ...snapshot,
      window: snapshot.window.slice(page.offset, page.offset + page.limit),
      windowCount: totals.windowCount,
      windowStart: page.offset,
      windowImportanceMicros: totals.windowImportanceMicros,
    };
  }

  /** The whole window (a head read may return more than its limits' worth). */
  async readHead(ref: SessionRef): Promise<SessionSnapshot> {
    this.#enter("readHead");
    return this.#snapshot(this.#state(ref, false));
  }

  async updateSettings(ref: SessionRef, change: SettingsChange): Promise<SessionSettings> {
    this.#enter("updateSettings");
    const state = this.#state(ref, true)!;
    this.#touch(ref, state, this.now());
    const next: SessionSettings = { ...state.settings };
    for (const [name, value] of Object.entries(change) as [keyof SessionSettings, number | null | undefined][]) {
      if (value === null) delete next[name];
      else if (value !== undefined) next[name] = value;
    }
    state.settings = next;
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
    state.turns = new Map();
    state.calls = [];
    state.title = null;
    const epoch = (state.meta?.epoch ?? 0) + 1;
    this.#epochs.set(keyOf(ref), epoch);
    if (state.meta) state.meta.epoch = epoch;
    return { removedMessages, keptSystem: state.system.length };
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
    state.meta.summaryFailures = 0;
    return { committed: true, removedTokens: sum(removed) };
  }

  async recordSummaryFailure(ref: SessionRef): Promise<number> {
    this.#enter("recordSummaryFailure");
    const meta = this.#state(ref, false)?.meta;
    if (!meta) return 0;
    meta.summaryFailures += 1;
    return meta.summaryFailures;
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
    return {
      summary: clone(state?.summary ?? null),
      archived: clone(archived.slice(page.offset, page.offset + page.limit)),
      total: archived.length,
    };
  }

  #owned(tenant: string, userId: string, sessionId: string): SessionState | null {
    const state = this.#state({ tenant, sessionId }, false);
    return state?.meta?.userId === userId ? state : null;
  }

  async userSessions(tenant: string, userId: string, page: { offset: number; limit: number }): Promise<SessionIdPage> {
    this.#enter("userSessions");
    const members = newestFirst(this.#map(this.#userIndex, userKey(tenant, userId))).slice(page.offset, page.offset + page.limit);
    const sessions = members.flatMap((sessionId) => {
      const state = this.#owned(tenant, userId, sessionId);
      if (!state?.meta) return [];
      const messages = (state.summary?.covered ?? 0) + state.window.length;
      return [{ sessionId, createdAt: state.meta.createdAt, updatedAt: state.meta.updatedAt, messages, title: state.title }];
    });
    return { ids: sessions.map((e) => e.sessionId), sessions, next: members.length < page.limit ? null : page.offset + members.length };
  }

  async exportSessions(
    tenant: string,
    userId: string,
    page: { offset: number; limit: number },
  ): Promise<{ sessions: SessionDump[]; next: number | null }> {
    this.#enter("exportSessions");
    const members = newestFirst(this.#map(this.#userIndex, userKey(tenant, userId))).slice(page.offset, page.offset + page.limit);
    const sessions = members.flatMap((sessionId): SessionDump[] => {
      const state = this.#owned(tenant, userId, sessionId);
      if (!state) return [];
      return [
        {
          sessionId,
          snapshot: this.#snapshot(state),
          archived: clone(state.archive),
          notes: {},
          scratchpad: [],
          turns: clone([...state.turns.values()]),
        },
      ];
    });
    return { sessions, next: members.length < page.limit ? null : page.offset + members.length };
  }

  async eraseUserSessions(tenant: string, userId: string, limit: number): Promise<UserSessionsErased> {
    this.#enter("eraseUserSessions");
    const index = this.#map(this.#userIndex, userKey(tenant, userId));
    const members = [...index.entries()]
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit)
      .map(([id]) => id);
    const out: UserSessionsErased = { sessions: 0, messages: 0, archived: 0, notes: 0, skipped: 0, more: false };
    for (const sessionId of members) {
      const state = this.#owned(tenant, userId, sessionId);
      if (state) {
        out.sessions += 1;
        out.messages += state.system.length + state.window.length;
        out.archived += state.archive.length;
        out.notes += state.notes;
        this.#sessions.delete(keyOf({ tenant, sessionId }));
        this.#map(this.#tenantIndex, tenant).delete(sessionId);
        if (this.#map(this.#owners, tenant).get(sessionId) === userId) this.#map(this.#owners, tenant).delete(sessionId);
      } else {
        out.skipped += 1;
      }
      index.delete(sessionId);
    }
    out.more = index.size > 0;
    this.journal?.count({ tenant, userId }, { sessions: out.sessions, messages: out.messages, archives: out.archived, notes: out.notes });
    return out;
  }

  async sweepIndexes(tenant: string, cursor: string): Promise<IndexSweep> {
    this.#enter("sweepIndexes");
    const removed: string[] = [];
    for (const sessionId of [...this.#map(this.#tenantIndex, tenant).keys()]) {
      if (this.#state({ tenant, sessionId }, false)?.meta) continue;
      this.#map(this.#tenantIndex, tenant).delete(sessionId);
      const owner = this.#map(this.#owners, tenant).get(sessionId);
      if (owner !== undefined) {
        this.#map(this.#userIndex, userKey(tenant, owner)).delete(sessionId);
        this.#map(this.#owners, tenant).delete(sessionId);
      }
      removed.push(sessionId);
    }
    void cursor;
    return { nextCursor: "", removed };
  }

  /** The session ids in a user's index, newest first (test helper). */
  indexed(tenant: string, userId: string): string[] {
    return newestFirst(this.#map(this.#userIndex, userKey(tenant, userId)));
  }
}

/** Per-user records in memory: tombstones, queued facts, recall counts. */
export class InMemoryUserStore implements UserStore {
  readonly calls: Record<string, number> = {};
  readonly #erased = new Map<string, number>();
  readonly #pending = new Map<string, Map<string, string>>();
  readonly #recalls = new Map<string, Map<string, { count: number; at: number }>>();

  #enter(method: keyof UserStore | "queue"): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
  }

  #of<V>(maps: Map<string, Map<string, V>>, scope: FactScope): Map<string, V> {
    const key = userKey(scope.tenant, scope.userId);
    let map = maps.get(key);
    if (!map) maps.set(key, (map = new Map()));
    return map;
  }

  /** What the append step does for the session store (not a port method). */
  queue(scope: FactScope, facts: readonly Fact[]): void {
    this.#enter("queue");
    for (const f of facts) this.#of(this.#pending, scope).set(f.id, JSON.stringify(f));
  }

  async erasedAt(scope: FactScope): Promise<number | null> {
    this.#enter("erasedAt");
    return this.tombstone(scope);
  }

  /** The tombstone without counting a call (the session store's append reads it in its own step). */
  tombstone(scope: FactScope): number | null {
    return this.#erased.get(userKey(scope.tenant, scope.userId)) ?? null;
  }

  async markErased(scope: FactScope, at: number): Promise<void> {
    this.#enter("markErased");
    this.#erased.set(userKey(scope.tenant, scope.userId), at);
    this.#of(this.#pending, scope).clear();
    this.#of(this.#recalls, scope).clear();
  }

  async pendingFacts(scope: FactScope, limit: number): Promise<Fact[]> {
    this.#enter("pendingFacts");
    return [...this.#of(this.#pending, scope).values()].slice(0, limit).map((raw) => JSON.parse(raw) as Fact);
  }

  async confirmFacts(scope: FactScope, facts: readonly Fact[]): Promise<{ erasedAt: number | null }> {
    this.#enter("confirmFacts");
    const pending = this.#of(this.#pending, scope);
    for (const f of facts) if (pending.get(f.id) === JSON.stringify(f)) pending.delete(f.id);
    return { erasedAt: this.#erased.get(userKey(scope.tenant, scope.userId)) ?? null };
  }

  async usersWithPendingFacts(tenant: string, limit: number): Promise<string[]> {
    this.#enter("usersWithPendingFacts");
    return this.#usersWith(this.#pending, tenant, limit);
  }

  async recordRecalls(scope: FactScope, ids: readonly string[], at: number): Promise<void> {
    this.#enter("recordRecalls");
    const recalls = this.#of(this.#recalls, scope);
    for (const id of ids) {
      const current = recalls.get(id) ?? { count: 0, at: 0 };
      recalls.set(id, { count: current.count + 1, at: Math.max(current.at, at) });
    }
  }

  async recallCounts(scope: FactScope, limit: number): Promise<RecallCount[]> {
    this.#enter("recallCounts");
    return [...this.#of(this.#recalls, scope).entries()].slice(0, limit).map(([id, r]) => ({ id, count: r.count, lastAccessedAt: r.at }));
  }

  async settleRecalls(scope: FactScope, merged: readonly RecallCount[]): Promise<void> {
    this.#enter("settleRecalls");
    const recalls = this.#of(this.#recalls, scope);
    for (const c of merged) {
      const current = recalls.get(c.id);
      if (!current) continue;
      if (current.count - c.count <= 0) recalls.delete(c.id);
      else recalls.set(c.id, { ...current, count: current.count - c.count });
    }
  }

  async usersWithRecalls(tenant: string, limit: number): Promise<string[]> {
    this.#enter("usersWithRecalls");
    return this.#usersWith(this.#recalls, tenant, limit);
  }

  #usersWith(maps: Map<string, Map<string, unknown>>, tenant: string, limit: number): string[] {
    return [...maps.entries()]
      .filter(([key, map]) => key.startsWith(`${tenant}\u0000`) && map.size > 0)
      .map(([key]) => key.slice(tenant.length + 1))
      .slice(0, limit);
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

  /** Scores like a dense index's normalized cosine, so the candidates are on the dense scale. */
  async query(scope: FactScope, query: FactQuery): Promise<FactMatches> {
    this.#enter("query");
    const candidates = [...this.#scope(scope).values()]
      .filter((f) => !query.types || query.types.length === 0 || query.types.includes(f.type))
      // Like the Vector store's filter: a superseded fact is never a candidate.
      .filter((f) => f.supersededAt === undefined)
      .filter((f) => matchesFilter(f, query.filter))
      // Like the Vector store: a fact's best score over every wording of the query.
      .map((f) => ({
        fact: clone(f),
        similarity: Math.max(...[query.text, ...(query.also ?? [])].map((t) => this.similarity(t, f.text))),
      }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, query.topK);
    return { scale: "dense", candidates };
  }

  async get(scope: FactScope, ids: string[]): Promise<(Fact | null)[]> {
    this.#enter("get");
    return ids.map((id) => clone(this.#scope(scope).get(id) ?? null));
  }

  async findByContent(scope: FactScope, contents: ContentRef[]): Promise<ContentMatch[]> {
    this.#enter("findByContent");
    const facts = this.#scope(scope);
    return contents.map(({ contentId }) => {
      const holder = [...facts.values()].find((f) => (f.contentId ?? f.id) === contentId) ?? null;
      return { holder: clone(holder), idTaken: facts.has(contentId) };
    });
  }

  async patch(scope: FactScope, facts: Fact[]): Promise<void> {
    this.#enter("patch");
    for (const f of facts) if (this.#scope(scope).has(f.id)) this.#scope(scope).set(f.id, clone(f));
  }

  async refresh(scope: FactScope, refreshes: FactRefresh[]): Promise<string[]> {
    this.#enter("refresh");
    const missing: string[] = [];
    for (const r of refreshes) {
      const f = this.#scope(scope).get(r.id);
      if (f) {
        const { supersededAt: _at, supersededBy: _by, ...current } = f;
        this.#scope(scope).set(r.id, { ...current, version: r.version, updatedAt: r.updatedAt });
      } else missing.push(r.id);
    }
    return missing;
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

type SummaryStep = (
  request: SummaryRequest,
) => { text: string; method?: SummaryMethod } | Promise<{ text: string; method?: SummaryMethod }>;

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

/** {@link AuditLog} in memory: every entry kept, throttling ignored. */
export class InMemoryAuditLog implements AuditLog {
  readonly entries: { tenant: string; entry: AuditEntry }[] = [];

  async append(tenant: string, entry: AuditEntry): Promise<void> {
    this.entries.push({ tenant, entry });
  }

  async list(tenant: string, query: { since: number; limit: number }): Promise<AuditEntry[]> {
    return this.entries
      .filter((e) => e.tenant === tenant && e.entry.ts > query.since)
      .map((e) => e.entry)
      .sort((a, b) => a.ts - b.ts)
      .slice(0, query.limit);
  }
}

/** {@link EraseJournal} in memory (the in-memory session store counts into it, like the scripts). */
export class InMemoryEraseJournal implements EraseJournal {
  readonly #jobs = new Map<string, EraseJob & { pending: Partial<Record<ErasePart, number>> }>();
  readonly #last = new Map<string, EraseJob>();
  readonly calls: Record<string, number> = {};
  #failNext: string | null = null;

  /** Makes the next call of `method` throw (a Redis fault on that step). */
  failNext(method: "begin" | "plan" | "settle" | "finish"): void {
    this.#failNext = method;
  }

  #enter(method: string): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    if (this.#failNext === method) {
      this.#failNext = null;
      throw new Error(`${method} failed`);
    }
  }

  async begin(scope: FactScope, receiptId: string, at: number): Promise<EraseJob> {
    this.#enter("begin");
    const key = `${scope.tenant}/${scope.userId}`;
    const job = this.#jobs.get(key) ?? {
      receiptId,
      startedAt: at,
      removed: { sessions: 0, messages: 0, archives: 0, notes: 0, facts: 0, backups: 0, traces: 0 },
      pending: {},
    };
    this.#jobs.set(key, job);
    return structuredClone({ receiptId: job.receiptId, startedAt: job.startedAt, removed: job.removed });
  }

  /** What a store removed, counted in the same step (as the scripts do); no-op without a running job. */
  count(scope: FactScope, removed: Partial<ErasedCounts>): void {
    const job = this.#jobs.get(`${scope.tenant}/${scope.userId}`);
    if (!job) return;
    for (const [name, n] of Object.entries(removed) as [keyof ErasedCounts, number][]) job.removed[name] += n;
  }

  async plan(scope: FactScope, part: ErasePart, remaining: number): Promise<void> {
    this.#enter("plan");
    const job = this.#jobs.get(`${scope.tenant}/${scope.userId}`);
    if (!job) return;
    const pending = job.pending[part];
    if (pending !== undefined && pending > remaining) job.removed[part] += pending - remaining;
    job.pending[part] = remaining;
  }

  async settle(scope: FactScope, part: ErasePart): Promise<void> {
    this.#enter("settle");
    const job = this.#jobs.get(`${scope.tenant}/${scope.userId}`);
    const pending = job?.pending[part];
    if (!job || pending === undefined) return;
    job.removed[part] += pending;
    delete job.pending[part];
  }

  async finish(scope: FactScope, more: boolean): Promise<EraseOutcome> {
    this.#enter("finish");
    const key = `${scope.tenant}/${scope.userId}`;
    const job = this.#jobs.get(key);
    const last = this.#last.get(key);
    const answer = (state: EraseOutcome["state"], j: EraseJob): EraseOutcome => ({
      state,
      receiptId: j.receiptId,
      startedAt: j.startedAt,
      removed: { ...j.removed },
    });
    if (!job)
      return last
        ? answer("replay", last)
        : {
            state: "replay",
            receiptId: "",
            startedAt: 0,
            removed: { sessions: 0, messages: 0, archives: 0, notes: 0, facts: 0, backups: 0, traces: 0 },
          };
    if (more || Object.keys(job.pending).length > 0) return answer("running", job);
    this.#jobs.delete(key);
    if (Object.values(job.removed).every((n) => n === 0) && last) return answer("replay", last);
    const closed = { receiptId: job.receiptId, startedAt: job.startedAt, removed: { ...job.removed } };
    this.#last.set(key, closed);
    return answer("closed", closed);
  }
}
