/**
 * In-memory fake of the backup port (src/memory/ports/facts.ts): snapshots per user, newest last,
 * the oldest dropped past `keep`. Every call is counted and any method can be made to fail once.
 */
import type { BackupStore, FactScope, FactSnapshot } from "../../../src/memory/ports/facts.ts";
import { clone, type Failures, userKey } from "./shared.ts";

type BackupMethod = keyof BackupStore;

export class InMemoryBackupStore implements BackupStore {
  readonly calls: Record<string, number> = {};
  readonly #snapshots = new Map<string, FactSnapshot[]>();
  readonly #failures: Failures<BackupMethod> = {};

  constructor(readonly keep = 3) {}

  failNext(method: BackupMethod, error: unknown = new Error(`${method} failed`)): void {
    this.#failures[method] = error;
  }

  #enter(method: BackupMethod): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    if (method in this.#failures) {
      const error = this.#failures[method];
      delete this.#failures[method];
      throw error;
    }
  }

  #of(scope: FactScope): FactSnapshot[] {
    return this.#snapshots.get(userKey(scope.tenant, scope.userId)) ?? [];
  }

  async newestAt(scope: FactScope): Promise<number | null> {
    this.#enter("newestAt");
    return this.#of(scope).at(-1)?.takenAt ?? null;
  }

  async write(scope: FactScope, snapshot: FactSnapshot): Promise<void> {
    this.#enter("write");
    this.#snapshots.set(userKey(scope.tenant, scope.userId), [...this.#of(scope), clone(snapshot)].slice(-this.keep));
  }

  async latest(scope: FactScope): Promise<FactSnapshot | null> {
    this.#enter("latest");
    return clone(this.#of(scope).at(-1) ?? null);
  }

  async purge(scope: FactScope): Promise<number> {
    this.#enter("purge");
    const n = this.#of(scope).length;
    this.#snapshots.delete(userKey(scope.tenant, scope.userId));
    return n;
  }

  async count(scope: FactScope): Promise<number> {
    this.#enter("count");
    return this.#of(scope).length;
  }
}
