/** @module RedisMetricsStore: a tenant's counters, session lengths, hourly activity and recent request durations in Redis. */
import type { Redis } from "@upstash/redis";
import { COUNTERS, HOUR_MS, type CounterName, type MetricsBatch, type StoredMetrics } from "../memory/observe/index.ts";
import type { MetricsStore } from "../memory/ports/index.ts";
import { assertId, observeKey, tenantSessionsKey } from "./keys.ts";

/** Recent request durations kept per tenant (all routes together), for p50/p95. */
export const LATENCY_SAMPLES = 1000;
/** Session lengths are kept this long after a session's last write. */
const LENGTH_TTL_SECONDS = 30 * 86_400;
/** Hour buckets outlive the day they are compared with. */
const HOUR_TTL_SECONDS = 25 * 3600;
const DAY_MS = 24 * HOUR_MS;
/** At most this many session lengths are read for the average and p95. */
const LENGTHS_READ = 10_000;

type MetricsRedis = Pick<Redis, "pipeline">;

const num = (value: unknown): number => {
  const n = typeof value === "number" ? value : Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/**
 * Counters in one hash (`obs:c`), session lengths in a sorted set (`obs:len`), per-hour message
 * counts and HyperLogLogs of the sessions that wrote them (`obs:hm:{hour}`, `obs:hs:{hour}`), and the
 * latest request durations as `route ms` entries of one capped list (`obs:lat`).
 */
export class RedisMetricsStore implements MetricsStore {
  readonly #redis: MetricsRedis;

  constructor(redis: MetricsRedis) {
    this.#redis = redis;
  }

  async record(tenant: string, batch: MetricsBatch, at: number): Promise<void> {
    const p = this.#redis.pipeline();
    const counters = observeKey(tenant, "c");
    for (const [name, by] of Object.entries(batch.counters)) if (by) p.hincrby(counters, name, by);
    if (batch.ratioSum !== 0) p.hincrbyfloat(counters, "ratioSum", batch.ratioSum);
    const sessions = Object.entries(batch.sessions);
    if (sessions.length > 0) {
      const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
      const lengths = observeKey(tenant, "len");
      const hourMessages = observeKey(tenant, "hm", String(hour));
      const hourSessions = observeKey(tenant, "hs", String(hour));
      let total = 0;
      for (const [sessionId, grew] of sessions) {
        p.zincrby(lengths, grew, assertId("sessionId", sessionId));
        total += grew;
      }
      p.expire(lengths, LENGTH_TTL_SECONDS);
      p.incrby(hourMessages, total);
      p.expire(hourMessages, HOUR_TTL_SECONDS);
      const [first, ...rest] = sessions.map(([sessionId]) => sessionId);
      if (first !== undefined) p.pfadd(hourSessions, first, ...rest);
      p.expire(hourSessions, HOUR_TTL_SECONDS);
    }
    if (batch.latency) {
      const latency = observeKey(tenant, "lat");
      p.lpush(latency, `${batch.latency.route} ${batch.latency.ms}`);
      p.ltrim(latency, 0, LATENCY_SAMPLES - 1);
    }
    if (p.length() > 0) await p.exec();
  }

  async read(tenant: string, at: number): Promise<StoredMetrics> {
    const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
    const before = Array.from({ length: 23 }, (_, i) => hour - (i + 1) * HOUR_MS);
    const p = this.#redis.pipeline();
    p.hgetall(observeKey(tenant, "c"));
    p.zrange(observeKey(tenant, "len"), 0, LENGTHS_READ - 1, { withScores: true });
    p.zcount(tenantSessionsKey(tenant), at - DAY_MS, "+inf");
    p.mget(observeKey(tenant, "hm", String(hour)), ...before.map((h) => observeKey(tenant, "hm", String(h))));
    p.pfcount(observeKey(tenant, "hs", String(hour)));
    const [firstBefore, ...restBefore] = before.map((h) => observeKey(tenant, "hs", String(h)));
    p.pfcount(firstBefore ?? observeKey(tenant, "hs", "none"), ...restBefore);
    p.lrange(observeKey(tenant, "lat"), 0, LATENCY_SAMPLES - 1);
    const [rawCounters, rawLengths, active, hourMessages, hourSessions, daySessions, rawLatency] = (await p.exec()) as unknown[];

    const hash = (rawCounters ?? {}) as Record<string, unknown>;
    const counters = Object.fromEntries(COUNTERS.map((name) => [name, num(hash[name])])) as Record<CounterName, number>;
    const flat = Array.isArray(rawLengths) ? rawLengths : [];
    const sessionLengths: number[] = [];
    for (let i = 1; i < flat.length; i += 2) sessionLengths.push(num(flat[i]));
    const messagesPerHour = (Array.isArray(hourMessages) ? hourMessages : []).map(num);
    const latency: Record<string, number[]> = {};
    for (const entry of Array.isArray(rawLatency) ? rawLatency : []) {
      const text = String(entry);
      const space = text.lastIndexOf(" ");
      if (space <= 0) continue;
      (latency[text.slice(0, space)] ??= []).push(num(text.slice(space + 1)));
    }
    return {
      counters,
      ratioSum: num(hash.ratioSum),
      sessionLengths,
      activeSessions: num(active),
      lastHour: { hour, messages: messagesPerHour[0] ?? 0, sessions: num(hourSessions) },
      dayBefore: { messages: messagesPerHour.slice(1).reduce((a, b) => a + b, 0), sessions: num(daySessions) },
      latency,
    };
  }
}
