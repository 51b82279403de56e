/** @module RedisTraceStore: per-turn traces as JSON under tenant keys, each session's latest in a capped list, erasable per user. */
import type { Redis } from "@upstash/redis";
import { RECENT_TRACES_KEPT, type Trace } from "../memory/observe/index.ts";
import type { TraceRef, TraceStore } from "../memory/ports/index.ts";
import { InvalidStoreInput } from "./errors.ts";
import { assertId, eraseJobKey, observeKey, userRecordKeys, userTracesKey } from "./keys.ts";
import { TRACE_ERASE_LUA, TRACE_PUT_LUA } from "./lua/traces.ts";
import { decodeReply, num } from "./script-replies.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

type TraceRedis = RedisClient & Pick<Redis, "get" | "lrange">;

function parseJson<T>(raw: unknown): T | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === "object") return raw as T; // the client decodes JSON it recognises
  if (typeof raw !== "string") return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/**
 * Traces as JSON strings under `am:{t}:obs:tr:{traceId}` (the tenant is part of the key, so another
 * tenant's id finds nothing), each session's latest ids in a capped list beside them, each user's
 * trace ids in a set an erase empties.
 */
export class RedisTraceStore implements TraceStore {
  readonly #redis: TraceRedis;
  readonly #scripts: ScriptRunner;

  constructor(redis: TraceRedis) {
    this.#redis = redis;
    this.#scripts = new ScriptRunner(redis);
  }

  async put(tenant: string, trace: Trace, ttlSeconds: number): Promise<void> {
    const key = observeKey(tenant, "tr", assertId("traceId", trace.traceId));
    const list = observeKey(tenant, "trs", assertId("sessionId", trace.sessionId));
    const ref: TraceRef = { traceId: trace.traceId, kind: trace.kind, at: trace.at };
    const user = trace.userId;
    // Without a user the trace holds no recalled text; a tenant key stands in for the user's keys.
    const [users, tombstone] = user === null ? [list, list] : [userTracesKey(tenant, user), userRecordKeys(tenant, user).tombstone];
    const args = [
      JSON.stringify(trace),
      JSON.stringify(ref),
      String(ttlSeconds),
      String(RECENT_TRACES_KEPT),
      String(Math.floor(trace.at)),
      trace.traceId,
      user === null ? "0" : "1",
    ];
    await this.#scripts.run(TRACE_PUT_LUA, [key, list, users, tombstone], args);
  }

  async eraseUser(tenant: string, userId: string, limit: number): Promise<{ removed: number; more: boolean }> {
    if (!Number.isSafeInteger(limit) || limit <= 0) throw new InvalidStoreInput("limit must be a positive integer");
    const keys = [userTracesKey(tenant, userId), eraseJobKey(tenant, userId)];
    const reply = decodeReply(await this.#scripts.run(TRACE_ERASE_LUA, keys, [observeKey(tenant, "tr", ""), String(limit)]), "eraseTraces");
    return { removed: num(reply.removed), more: reply.more === true };
  }

  async get(tenant: string, traceId: string): Promise<Trace | null> {
    return parseJson<Trace>(await this.#redis.get<unknown>(observeKey(tenant, "tr", assertId("traceId", traceId))));
  }

  async recent(tenant: string, sessionId: string, limit: number): Promise<TraceRef[]> {
    const raw = await this.#redis.lrange<unknown>(observeKey(tenant, "trs", assertId("sessionId", sessionId)), 0, Math.max(0, limit - 1));
    return raw.flatMap((item) => parseJson<TraceRef>(item) ?? []);
  }
}
