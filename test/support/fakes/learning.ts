/**
 * In-memory fakes for learning: the per-user learning lock (src/memory/ports/facts.ts,
 * LearningLocks) and a fact store whose similarity query lags behind its writes, like an index
 * that makes an upsert queryable only after a moment.
 */
import type { FactMatches, FactQuery, FactScope, FactStore, LearningLease, LearningLocks } from "../../../src/memory/ports/facts.ts";
import type { Fact } from "../../../src/memory/model.ts";
import { InMemoryFactStore } from "./facts.ts";
import { userKey } from "./shared.ts";

/** {@link LearningLocks} in memory, with the Redis scripts' rules: TTL, compare-and-delete, ids kept a while, nothing recorded after an erase. */
export class InMemoryLearningLocks implements LearningLocks {
  readonly calls: Record<string, number> = {};
  readonly #locks = new Map<string, { token: string; until: number }>();
  readonly #written = new Map<string, { id: string; at: number }[]>();
  readonly #erasedAt: (scope: FactScope) => number | null;
  readonly #now: () => number;
  readonly #keepMs: number;

  constructor(options: { erasedAt?: (scope: FactScope) => number | null; now?: () => number; keepMs?: number } = {}) {
    this.#erasedAt = options.erasedAt ?? (() => null);
    this.#now = options.now ?? Date.now;
    this.#keepMs = options.keepMs ?? 120_000;
  }

  /** Whether someone holds the user's lock now. */
  held(scope: FactScope): boolean {
    const lock = this.#locks.get(userKey(scope.tenant, scope.userId));
    return lock !== undefined && lock.until > this.#now();
  }

  /** The recorded ids of the user, newest first. */
  written(scope: FactScope): string[] {
    return (this.#written.get(userKey(scope.tenant, scope.userId)) ?? []).map((w) => w.id);
  }

  async tryAcquire(scope: FactScope, token: string, ttlMs: number): Promise<LearningLease | null> {
    this.calls.tryAcquire = (this.calls.tryAcquire ?? 0) + 1;
    if (this.held(scope)) return null;
    this.#locks.set(userKey(scope.tenant, scope.userId), { token, until: this.#now() + ttlMs });
    return { token, written: this.written(scope).slice(0, 64) };
  }

  async release(scope: FactScope, token: string, written: readonly string[], since: number, now: number): Promise<void> {
    this.calls.release = (this.calls.release ?? 0) + 1;
    const key = userKey(scope.tenant, scope.userId);
    const erased = this.#erasedAt(scope);
    if (written.length > 0 && !(erased !== null && erased >= since)) {
      const kept = (this.#written.get(key) ?? []).filter((w) => !written.includes(w.id) && w.at >= now - this.#keepMs);
      this.#written.set(key, [...written.map((id) => ({ id, at: now })), ...kept].slice(0, 64));
    }
    if (this.#locks.get(key)?.token === token) this.#locks.delete(key);
  }

  /** What an erase does to the user's lock and recorded ids. */
  clear(scope: FactScope): void {
    const key = userKey(scope.tenant, scope.userId);
    this.#locks.delete(key);
    this.#written.delete(key);
  }
}

/**
 * A fact store whose `query` answers from the index as it stood at the last {@link sync} (reads
 * by id, lists and writes are current), like Upstash Vector right after an upsert.
 */
export class LaggingFactStore extends InMemoryFactStore implements FactStore {
  readonly #index = new InMemoryFactStore();

  /** The index catches up with every write so far. */
  async sync(scope: FactScope): Promise<void> {
    await this.#index.deleteAll(scope);
    const facts: Fact[] = this.all(scope);
    if (facts.length > 0) await this.#index.upsert(scope, facts);
  }

  override query(scope: FactScope, query: FactQuery): Promise<FactMatches> {
    return this.#index.query(scope, query);
  }
}
