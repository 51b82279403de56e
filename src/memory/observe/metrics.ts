/**
 * Tenant metrics: what one request adds (a {@link MetricsBatch}, written by the runtime in one
 * background pipeline) and how the stored counters become the figures of `GET /v1/stats`.
 */

export const COUNTERS = [
  "requests",
  "messages",
  "tokens",
  "contextReads",
  "recallQueries",
  "recallHits",
  "compressions",
  "summarizerFailures",
  "rateLimited",
] as const;

export type CounterName = (typeof COUNTERS)[number];

/** What one request adds to its tenant's metrics. */
export interface MetricsBatch {
  counters: Partial<Record<CounterName, number>>;
  /** Sum of the compression ratios of this batch (the average is sum / compressions). */
  ratioSum: number;
  /** Messages each session grew by. */
  sessions: Record<string, number>;
  /** The request's route and duration, when it was an API request. */
  latency: { route: string; ms: number } | null;
}

/** Collects one request's metrics; cheap enough to call on every path. */
export interface MetricsRecorder {
  count(name: CounterName, by?: number): void;
  compression(ratio: number): void;
  sessionGrew(sessionId: string, messages: number): void;
}

export const NO_METRICS: MetricsRecorder = { count: () => undefined, compression: () => undefined, sessionGrew: () => undefined };

// Session ids are client-chosen and may be "constructor" or "__proto__": their counts live in an
// object with no prototype, so such a name is an ordinary key.
const emptyBatch = (): MetricsBatch => ({
  counters: {},
  ratioSum: 0,
  sessions: Object.create(null) as Record<string, number>,
  latency: null,
});

/** The batch of one request, flushed once at its end. */
export class RequestMetrics implements MetricsRecorder {
  #batch: MetricsBatch = emptyBatch();

  count(name: CounterName, by = 1): void {
    if (by === 0) return;
    this.#batch.counters[name] = (this.#batch.counters[name] ?? 0) + by;
  }

  compression(ratio: number): void {
    this.count("compressions");
    if (Number.isFinite(ratio)) this.#batch.ratioSum += ratio;
  }

  sessionGrew(sessionId: string, messages: number): void {
    if (messages <= 0) return;
    this.#batch.sessions[sessionId] = (this.#batch.sessions[sessionId] ?? 0) + messages;
    this.count("messages", messages);
  }

  latency(route: string, ms: number): void {
    this.#batch.latency = { route, ms: Math.max(0, Math.round(ms)) };
  }

  /** The batch so far, and a fresh one from here on (background work after the response flushes its own). */
  take(): MetricsBatch {
    const batch = this.#batch;
    this.#batch = emptyBatch();
    return batch;
  }
}

export function isEmptyBatch(batch: MetricsBatch): boolean {
  return (
    Object.keys(batch.counters).length === 0 && batch.ratioSum === 0 && Object.keys(batch.sessions).length === 0 && batch.latency === null
  );
}

/** One hour of activity: messages written and distinct sessions that wrote them. */
export interface HourBucket {
  /** Start of the hour, epoch ms. */
  hour: number;
  messages: number;
  sessions: number;
}

/** What the metrics store holds for a tenant, as read in one round trip. */
export interface StoredMetrics {
  counters: Record<CounterName, number>;
  ratioSum: number;
  /** Messages written per session (sessions the metrics saw, within their retention). */
  sessionLengths: number[];
  /** Sessions active within the last 24 hours. */
  activeSessions: number;
  /** The current hour's bucket. */
  lastHour: HourBucket;
  /** The 23 hours before it, summed: messages, and distinct sessions over all of them. */
  dayBefore: { messages: number; sessions: number };
  /** Recent request durations per route, newest first. */
  latency: Record<string, number[]>;
}

export const HOUR_MS = 3_600_000;

/** Alerts fire when the last hour's average session length is this many times the day's. */
export const LENGTH_JUMP_FACTOR = 3;
/** ...and the hour has at least this many messages (a handful of messages is noise, not a script). */
export const LENGTH_JUMP_MIN_MESSAGES = 20;

export interface StatsAlert {
  kind: "session_length_jump";
  message: string;
  lastHourAverage: number;
  dayAverage: number;
}

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** The value at quantile `q` (0..1) of `values`, nearest rank; 0 for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? 0;
}

const average = (sum: number, n: number): number => (n > 0 ? round4(sum / n) : 0);

/**
 * A script hammering the API makes the average session length jump. The last
 * hour's average (messages / distinct sessions) is compared with the 23 hours before it.
 */
export function lengthJumpAlerts(lastHour: HourBucket, dayBefore: { messages: number; sessions: number }): StatsAlert[] {
  const hourAvg = average(lastHour.messages, lastHour.sessions);
  const dayAvg = average(dayBefore.messages, dayBefore.sessions);
  if (lastHour.messages < LENGTH_JUMP_MIN_MESSAGES || dayAvg === 0 || hourAvg < LENGTH_JUMP_FACTOR * dayAvg) return [];
  return [
    {
      kind: "session_length_jump",
      message: `average session length in the last hour (${hourAvg}) is ${round4(hourAvg / dayAvg)}x the day's (${dayAvg})`,
      lastHourAverage: hourAvg,
      dayAverage: dayAvg,
    },
  ];
}

export interface TenantStats {
  activeSessions: number;
  messages: number;
  tokens: number;
  sessionLength: { average: number; p95: number; sessions: number };
  facts: { total: number; byType: Record<string, number>; truncated: boolean } | null;
  compressions: { count: number; averageRatio: number };
  summarizerFailures: number;
  recall: { contextReads: number; queries: number; hits: number; hitRate: number };
  rateLimited: number;
  requests: number;
  latency: Record<string, { p50: number; p95: number; samples: number }>;
  alerts: StatsAlert[];
}

/** The figures of `GET /v1/stats` from what the store holds. */
export function tenantStats(stored: StoredMetrics, facts: TenantStats["facts"]): TenantStats {
  const c = stored.counters;
  const lengths = stored.sessionLengths;
  const latency: TenantStats["latency"] = {};
  for (const [route, samples] of Object.entries(stored.latency)) {
    if (samples.length > 0) latency[route] = { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), samples: samples.length };
  }
  return {
    activeSessions: stored.activeSessions,
    messages: c.messages,
    tokens: c.tokens,
    sessionLength: {
      average: average(
        lengths.reduce((a, b) => a + b, 0),
        lengths.length,
      ),
      p95: quantile(lengths, 0.95),
      sessions: lengths.length,
    },
    facts,
    compressions: { count: c.compressions, averageRatio: average(stored.ratioSum, c.compressions) },
    summarizerFailures: c.summarizerFailures,
    recall: { contextReads: c.contextReads, queries: c.recallQueries, hits: c.recallHits, hitRate: average(c.recallHits, c.recallQueries) },
    rateLimited: c.rateLimited,
    requests: c.requests,
    latency,
    alerts: lengthJumpAlerts(stored.lastHour, stored.dayBefore),
  };
}
