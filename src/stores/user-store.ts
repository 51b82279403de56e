/** @module RedisUserStore: a user's erase tombstone, facts queued for Vector and recall counts, with tenant sets for the cron. */
import type { FactScope, RecallCount, UserStore } from "../memory/ports/index.ts";
import type { Fact } from "../memory/model.ts";
import { InvalidStoreInput, UnexpectedReply } from "./errors.ts";
import { factFromMetadata } from "./fact-metadata.ts";
import { assertId, learningKeys, tenantUserSets, userRecordKeys } from "./keys.ts";
import { isValidId } from "../memory/ids.ts";
import {
  CONFIRM_FACTS_LUA,
  MARK_ERASED_LUA,
  PENDING_FACTS_LUA,
  RECALL_COUNTS_LUA,
  RECORD_RECALLS_LUA,
  SETTLE_RECALLS_LUA,
} from "./lua/user-records.ts";
import { asList, decodeReply, num } from "./script-replies.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

/** Options of {@link RedisUserStore}. */
export interface RedisUserStoreOptions {
  /**
   * How long an erase tombstone lives, seconds. It must outlive any work scheduled before the
   * erase (`waitUntil` ends within 30 s; queued facts are dropped by the erase itself).
   * @default 86400
   */
  tombstoneTtlSeconds?: number;
}

const positive = (n: number, what: string): string => {
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidStoreInput(`${what} must be a positive integer`);
  return String(n);
};

/** A queued fact is stored as the JSON of the whole fact (the id travels inside). */
function parseQueuedFact(raw: unknown): Fact | null {
  if (typeof raw !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || !("id" in value) || typeof value.id !== "string") return null;
  return factFromMetadata(value.id, value);
}

/** {@link UserStore} on Upstash Redis: per-user hashes and a tenant set per kind of record. */
export class RedisUserStore implements UserStore {
  readonly #redis: RedisClient;
  readonly #scripts: ScriptRunner;
  readonly #tombstoneTtl: string;

  constructor(redis: RedisClient, options: RedisUserStoreOptions = {}) {
    this.#redis = redis;
    this.#scripts = new ScriptRunner(redis);
    this.#tombstoneTtl = positive(options.tombstoneTtlSeconds ?? 86_400, "tombstoneTtlSeconds");
  }

  async erasedAt(scope: FactScope): Promise<number | null> {
    const raw = await this.#redis.get<unknown>(userRecordKeys(scope.tenant, scope.userId).tombstone);
    const at = num(raw, Number.NaN);
    return Number.isFinite(at) ? at : null;
  }

  async markErased(scope: FactScope, at: number): Promise<void> {
    const k = userRecordKeys(scope.tenant, scope.userId);
    const learning = learningKeys(scope.tenant, scope.userId);
    const keys = [k.tombstone, k.pending, k.pendingUsers, k.recalls, k.recallUsers, learning.lock, learning.written];
    await this.#scripts.run(MARK_ERASED_LUA, keys, [scope.userId, positive(at, "erase time"), this.#tombstoneTtl]);
  }

  async pendingFacts(scope: FactScope, limit: number): Promise<Fact[]> {
    const k = userRecordKeys(scope.tenant, scope.userId);
    const reply = decodeReply(await this.#scripts.run(PENDING_FACTS_LUA, [k.pending], [positive(limit, "limit")]), "pendingFacts");
    return asList(reply.facts).flatMap((raw) => parseQueuedFact(raw) ?? []);
  }

  async confirmFacts(scope: FactScope, facts: readonly Fact[]): Promise<{ erasedAt: number | null }> {
    const k = userRecordKeys(scope.tenant, scope.userId);
    const args = [scope.userId, ...facts.flatMap((f) => [assertId("fact id", f.id), JSON.stringify(f)])];
    const reply = decodeReply(await this.#scripts.run(CONFIRM_FACTS_LUA, [k.pending, k.pendingUsers, k.tombstone], args), "confirmFacts");
    const at = num(reply.erasedAt, Number.NaN);
    return { erasedAt: Number.isFinite(at) ? at : null };
  }

  usersWithPendingFacts(tenant: string, limit: number): Promise<string[]> {
    return this.#members(tenantUserSets(tenant).pendingUsers, limit);
  }

  async recordRecalls(scope: FactScope, ids: readonly string[], at: number): Promise<void> {
    if (ids.length === 0) return;
    const k = userRecordKeys(scope.tenant, scope.userId);
    const args = [scope.userId, positive(at, "recall time"), ...ids.map((id) => assertId("fact id", id))];
    await this.#scripts.run(RECORD_RECALLS_LUA, [k.recalls, k.recallUsers], args);
  }

  async recallCounts(scope: FactScope, limit: number): Promise<RecallCount[]> {
    const k = userRecordKeys(scope.tenant, scope.userId);
    const reply = decodeReply(await this.#scripts.run(RECALL_COUNTS_LUA, [k.recalls], [positive(limit, "limit")]), "recallCounts");
    return asList(reply.counts).map((raw) => {
      const c = decodeReply(raw, "recallCounts");
      if (typeof c.id !== "string") throw new UnexpectedReply("recallCounts");
      return { id: c.id, count: num(c.count), lastAccessedAt: num(c.at) };
    });
  }

  async settleRecalls(scope: FactScope, merged: readonly RecallCount[]): Promise<void> {
    if (merged.length === 0) return;
    const k = userRecordKeys(scope.tenant, scope.userId);
    const args = [scope.userId, ...merged.flatMap((c) => [assertId("fact id", c.id), String(Math.max(0, Math.floor(c.count)))])];
    await this.#scripts.run(SETTLE_RECALLS_LUA, [k.recalls, k.recallUsers], args);
  }

  usersWithRecalls(tenant: string, limit: number): Promise<string[]> {
    return this.#members(tenantUserSets(tenant).recallUsers, limit);
  }

  /** Up to `limit` members of a tenant set; valid ids only (each becomes part of a key). */
  async #members(key: string, limit: number): Promise<string[]> {
    const members = await this.#redis.srandmember<unknown[]>(key, Number(positive(limit, "limit")));
    return (Array.isArray(members) ? members : []).map(String).filter(isValidId);
  }
}
