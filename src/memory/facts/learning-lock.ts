/**
 * @module One user's learning turns, one at a time: the per-user lock waited for with bounded
 * backoff, and released with the ids the turn wrote so the next turn reads them by id.
 */
import { errorText } from "../errors.ts";
import type { FactScope, LearningLocks } from "../ports/facts.ts";
import type { MemoryLogger } from "../ports/operations.ts";

/**
 * How long one turn may hold the user's learning lock, ms. A holder that dies (its isolate ended)
 * blocks the user's next turns at most this long.
 */
export const LEARNING_LOCK_TTL_MS = 15_000;

/**
 * How long a turn waits for the lock before it learns without it, ms: within the 30 s `waitUntil`
 * budget, and longer than the lock's TTL so a dead holder never makes a turn give up. A turn that
 * still finds the lock held learns unserialized; the cron repairs a duplicate that may leave.
 */
export const LEARNING_LOCK_WAIT_MS = 18_000;

const FIRST_BACKOFF_MS = 15;
const MAX_BACKOFF_MS = 200;

export interface LearningLockDeps {
  /** Null or absent: turns are not serialized (a single-process store, or no Redis). */
  learningLocks?: LearningLocks | null | undefined;
  now(): number;
  newId(): string;
  logger: MemoryLogger;
}

/** What a turn under the lock produced, and the ids of the facts it wrote (recorded for the next turns). */
export interface LockedOutcome<T> {
  result: T;
  written: readonly string[];
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `turn` holding the user's learning lock. `turn` gets the ids recent turns wrote: Upstash
 * Vector makes an upsert queryable only after a moment, so the next turn reads those facts by id
 * (which is consistent) instead of trusting its similarity query to show them. The lock is
 * released (compare-and-delete on its owner token) whatever `turn` does; the ids it wrote are
 * recorded unless the user was erased since `since`.
 */
export async function withLearningLock<T>(
  deps: LearningLockDeps,
  scope: FactScope,
  since: number,
  turn: (recentlyWritten: readonly string[]) => Promise<LockedOutcome<T>>,
): Promise<T> {
  const locks = deps.learningLocks;
  if (!locks) return (await turn([])).result;
  const token = `lt_${deps.newId()}`;
  const deadline = deps.now() + LEARNING_LOCK_WAIT_MS;
  let backoff = FIRST_BACKOFF_MS;
  for (;;) {
    const lease = await locks.tryAcquire(scope, token, LEARNING_LOCK_TTL_MS);
    if (lease) return runHolding(deps, locks, scope, { token, since, recent: lease.written }, turn);
    if (deps.now() >= deadline) {
      deps.logger.warn("learning lock still held: this turn learns without it", { user: scope.userId });
      return (await turn([])).result;
    }
    // jittered, so waiters that collided once do not poll in step
    await pause(backoff * (0.5 + Math.random()));
    backoff = Math.min(MAX_BACKOFF_MS, Math.ceil(backoff * 1.6));
  }
}

async function runHolding<T>(
  deps: LearningLockDeps,
  locks: LearningLocks,
  scope: FactScope,
  held: { token: string; since: number; recent: readonly string[] },
  turn: (recentlyWritten: readonly string[]) => Promise<LockedOutcome<T>>,
): Promise<T> {
  let written: readonly string[] = [];
  try {
    const outcome = await turn(held.recent);
    written = outcome.written;
    return outcome.result;
  } finally {
    // A failed release leaves the lock to expire (TTL); the next turn then waits, never learns wrong.
    await locks.release(scope, held.token, written, held.since, deps.now()).catch((error: unknown) => {
      deps.logger.warn("learning lock release failed", { user: scope.userId, error: errorText(error) });
    });
  }
}
