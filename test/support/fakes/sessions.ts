/**
 * In-memory fake of the session store port (src/memory/ports/sessions.ts). It follows the
 * contract of the Redis adapter (see test/stores/session-store/): idempotent appends, owner
 * check, compare-and-set compression (epoch, summary version, window prefix), archive limit,
 * reset bumping the epoch, exclusive expiring lock. Every call is counted so tests can check
 * round trips, and any method can be made to fail once.
 */
import { snapshotTotals } from "../../../src/memory/context/window.ts";
import { MemoryError } from "../../../src/memory/errors.ts";
import type { SessionRef, SessionSettings, SessionSnapshot, StoredMessage } from "../../../src/memory/model.ts";
import {
  type AppendOptions,
  type AppendResult,
  type CommitOutcome,
  type CompressionCommit,
  type HistoryPage,
  type IndexSweep,
  type ResetResult,
  type SessionDump,
  type SessionIdPage,
  type SessionStore,
  type SettingsChange,
  TURN_OUTCOMES_KEPT,
  type UserSessionsErased,
} from "../../../src/memory/ports/sessions.ts";
import type { InMemoryUserStore } from "./facts.ts";
import type { InMemoryEraseJournal } from "./operations.ts";
import { openCalls, SessionTables } from "./session-tables.ts";
import { eraseUserSessions, exportSessions, sweepIndexes, userSessions } from "./session-users.ts";
import { clone, type Failures, keyOf, newestFirst, sum, userKey } from "./shared.ts";

type SessionMethod = keyof SessionStore;

export class InMemorySessionStore implements SessionStore {
  readonly calls: Record<string, number> = {};
  readonly #t = new SessionTables();
  readonly #locks = new Map<string, { token: string; expiresAt: number }>();
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
    this.#t.sessions.delete(keyOf(ref));
  }

  #enter(method: SessionMethod): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    if (method in this.#failures) {
      const error = this.#failures[method];
      delete this.#failures[method];
      throw error;
    }
  }

  async append(ref: SessionRef, messages: StoredMessage[], options: AppendOptions): Promise<AppendResult> {
    this.#enter("append");
    const existing = this.#t.state(ref, false);
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
    const open = prior || retried ? (existing?.calls ?? []) : openCalls(existing, messages);
    const state = this.#t.state(ref, true)!;
    const now = this.now();
    this.#t.touch(ref, state, now);
    const meta = state.meta!;
    if (meta.userId === undefined && options.userId !== undefined) {
      meta.userId = options.userId;
      const owners = this.#t.map(this.#t.owners, ref.tenant);
      const previous = owners.get(ref.sessionId);
      if (previous !== undefined && previous !== options.userId)
        this.#t.map(this.#t.userIndex, userKey(ref.tenant, previous)).delete(ref.sessionId);
      owners.set(ref.sessionId, options.userId);
      this.#t.map(this.#t.userIndex, userKey(ref.tenant, options.userId)).set(ref.sessionId, now);
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
      snapshot: options.withSnapshot ? this.#t.snapshot(state) : undefined,
      ...(options.turn ? { outcome: outcome === null ? null : clone(outcome) } : {}),
    };
  }

  async owner(ref: SessionRef): Promise<string | null> {
    this.#enter("owner");
    return this.#t.state(ref, false)?.meta?.userId ?? null;
  }

  async ownership(ref: SessionRef): Promise<{ exists: boolean; owner: string | null }> {
    this.#enter("ownership");
    const meta = this.#t.state(ref, false)?.meta;
    return { exists: meta !== undefined && meta !== null, owner: meta?.userId ?? null };
  }

  /** The whole window always (a bound only limits what a store must return). */
  async read(ref: SessionRef): Promise<SessionSnapshot> {
    this.#enter("read");
    return this.#t.snapshot(this.#t.state(ref, false));
  }

  async readPage(ref: SessionRef, page: { offset: number; limit: number }): Promise<SessionSnapshot> {
    this.#enter("readPage");
    const snapshot = this.#t.snapshot(this.#t.state(ref, false));
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
    return this.#t.snapshot(this.#t.state(ref, false));
  }

  async updateSettings(ref: SessionRef, change: SettingsChange): Promise<SessionSettings> {
    this.#enter("updateSettings");
    const state = this.#t.state(ref, true)!;
    this.#t.touch(ref, state, this.now());
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
    const state = this.#t.state(ref, false);
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
    this.#t.epochs.set(keyOf(ref), epoch);
    if (state.meta) state.meta.epoch = epoch;
    return { removedMessages, keptSystem: state.system.length };
  }

  async commitCompression(ref: SessionRef, commit: CompressionCommit): Promise<CommitOutcome> {
    this.#enter("commitCompression");
    this.beforeCommit?.();
    const state = this.#t.state(ref, false);
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
    const meta = this.#t.state(ref, false)?.meta;
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
    const state = this.#t.state(ref, false);
    const archived = state?.archive ?? [];
    return {
      summary: clone(state?.summary ?? null),
      archived: clone(archived.slice(page.offset, page.offset + page.limit)),
      total: archived.length,
    };
  }

  async userSessions(tenant: string, userId: string, page: { offset: number; limit: number }): Promise<SessionIdPage> {
    this.#enter("userSessions");
    return userSessions(this.#t, tenant, userId, page);
  }

  async exportSessions(
    tenant: string,
    userId: string,
    page: { offset: number; limit: number },
  ): Promise<{ sessions: SessionDump[]; next: number | null }> {
    this.#enter("exportSessions");
    return exportSessions(this.#t, tenant, userId, page);
  }

  async eraseUserSessions(tenant: string, userId: string, limit: number): Promise<UserSessionsErased> {
    this.#enter("eraseUserSessions");
    return eraseUserSessions(this.#t, this.journal, tenant, userId, limit);
  }

  async sweepIndexes(tenant: string, cursor: string): Promise<IndexSweep> {
    this.#enter("sweepIndexes");
    void cursor;
    return sweepIndexes(this.#t, tenant);
  }

  /** The session ids in a user's index, newest first (test helper). */
  indexed(tenant: string, userId: string): string[] {
    return newestFirst(this.#t.map(this.#t.userIndex, userKey(tenant, userId)));
  }
}
