/** In-memory fake of the maintenance port (src/memory/ports/maintenance.ts): the cron's run lock. */
import type { RunLock } from "../../../src/memory/ports/maintenance.ts";

/** {@link RunLock} in memory, with the Redis rules: one holder, a lease that expires, compare-and-delete. */
export class InMemoryRunLock implements RunLock {
  readonly calls = { tryAcquire: 0, release: 0 };
  #held: { token: string; until: number } | null = null;
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** The token holding the lease now, or null. */
  holder(): string | null {
    return this.#held && this.#held.until > this.#now() ? this.#held.token : null;
  }

  async tryAcquire(token: string, leaseMs: number): Promise<boolean> {
    this.calls.tryAcquire += 1;
    if (this.holder() !== null) return false;
    this.#held = { token, until: this.#now() + leaseMs };
    return true;
  }

  async release(token: string): Promise<void> {
    this.calls.release += 1;
    if (this.#held?.token === token) this.#held = null;
  }
}
