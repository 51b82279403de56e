/** @module RedisLearningLocks: the per-user learning lock (SET NX PX, compare-and-delete) and the ids recent learning turns wrote. */
import type { FactScope, LearningLease, LearningLocks } from "../memory/ports/index.ts";
import { InvalidStoreInput } from "./errors.ts";
import { assertId, learningKeys, userRecordKeys } from "./keys.ts";
import { ACQUIRE_LEARNING_LUA, RELEASE_LEARNING_LUA } from "./lua/learning.ts";
import { asStrings, decodeReply } from "./script-replies.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

/** Options of {@link RedisLearningLocks}. */
export interface RedisLearningLocksOptions {
  /**
   * How long the ids a learning turn wrote are offered to the next turns, ms: longer than the
   * Vector index takes to make an upsert queryable.
   * @default 120000
   */
  keepWrittenMs?: number;
  /**
   * Most ids kept (and answered per acquire).
   * @default 64
   */
  maxWritten?: number;
}

const integer = (n: number, what: string): string => {
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidStoreInput(`${what} must be a non-negative integer`);
  return String(n);
};

/** {@link LearningLocks} on Upstash Redis: `am:{t}:u:{u}:learn-lock` and `am:{t}:u:{u}:learned`, one script each way. */
export class RedisLearningLocks implements LearningLocks {
  readonly #scripts: ScriptRunner;
  readonly #keepMs: string;
  readonly #max: string;

  constructor(redis: RedisClient, options: RedisLearningLocksOptions = {}) {
    this.#scripts = new ScriptRunner(redis);
    this.#keepMs = integer(options.keepWrittenMs ?? 120_000, "keepWrittenMs");
    this.#max = integer(Math.max(1, options.maxWritten ?? 64), "maxWritten");
  }

  async tryAcquire(scope: FactScope, token: string, ttlMs: number): Promise<LearningLease | null> {
    const k = learningKeys(scope.tenant, scope.userId);
    if (ttlMs <= 0) throw new InvalidStoreInput("lock ttl must be positive");
    const args = [assertId("lock token", token), integer(ttlMs, "lock ttl"), this.#max];
    const reply = decodeReply(await this.#scripts.run(ACQUIRE_LEARNING_LUA, [k.lock, k.written], args), "acquireLearning");
    if (reply.held !== 0) return null;
    return { token, written: asStrings(reply.written) };
  }

  async release(scope: FactScope, token: string, written: readonly string[], since: number, now: number): Promise<void> {
    const k = learningKeys(scope.tenant, scope.userId);
    const tombstone = userRecordKeys(scope.tenant, scope.userId).tombstone;
    const ids = written.map((id) => assertId("fact id", id));
    const args = [assertId("lock token", token), integer(since, "since"), integer(now, "now"), this.#keepMs, this.#max, ...ids];
    await this.#scripts.run(RELEASE_LEARNING_LUA, [k.lock, k.written, tombstone], args);
  }
}
