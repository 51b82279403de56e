import type { Redis } from "@upstash/redis";
import { RECENT_TRACES_KEPT } from "../memory/observe.ts";
import type { TraceRef, TraceStore } from "../memory/ports.ts";
import type { Trace } from "../memory/trace.ts";
import { assertId, observeKey } from "./keys.ts";


type TraceRedis = Pick<Redis, "pipeline" | "get" | "lrange">;

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
 * tenant's id finds nothing), each session's latest ids in a capped list beside them.
 */
export class RedisTraceStore implements TraceStore {
  readonly #redis: TraceRedis;

  constructor(redis: TraceRedis) {
    this.#redis = redis;
  }

  async put(tenant: string, trace: Trace, ttlSeconds: number): Promise<void> {
    const key = observeKey(tenant, "tr", assertId("traceId", trace.traceId));
    const list = observeKey(tenant, "trs", assertId("sessionId", trace.sessionId));
    const ref: TraceRef = { traceId: trace.traceId, kind: trace.kind, at: trace.at };
    const p = this.#redis.pipeline();
    p.set(key, JSON.stringify(trace), { ex: ttlSeconds });
    p.lpush(list, JSON.stringify(ref));
    p.ltrim(list, 0, RECENT_TRACES_KEPT - 1);
    p.expire(list, ttlSeconds);
    await p.exec();
  }

  async get(tenant: string, traceId: string): Promise<Trace | null> {
    return parseJson<Trace>(await this.#redis.get<unknown>(observeKey(tenant, "tr", assertId("traceId", traceId))));
  }

  async recent(tenant: string, sessionId: string, limit: number): Promise<TraceRef[]> {
    const raw = await this.#redis.lrange<unknown>(observeKey(tenant, "trs", assertId("sessionId", sessionId)), 0, Math.max(0, limit - 1));
    return raw.flatMap((item) => parseJson<TraceRef>(item) ?? []);
  }
}
