/** @module UpstashRateLimiter: sliding-window rate limits on `@upstash/ratelimit`, with refusals remembered in the isolate. */
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis/cloudflare";
import type { RateCount, RateDecision, RateLimiter } from "../memory/ports/index.ts";

export interface RateLimitOptions {
  /** Requests allowed per window and identifier. */
  requests: number;
  /** Window length, ms. */
  windowMs: number;
  /**
   * Key prefix in Redis.
   * @default "am:rl"
   */
  prefix?: string;
}

/**
 * {@link RateLimiter} on `@upstash/ratelimit` (sliding window) over the service's own Redis client.
 * Each identifier's check is one EVALSHA; issued in the same tick, the client's auto-pipelining
 * sends them as one request. Refusals are remembered in this isolate (the library's ephemeral
 * cache), so a blocked client is refused without a round trip until its window resets.
 */
export class UpstashRateLimiter implements RateLimiter {
  readonly #limiter: Ratelimit;
  readonly #blocked = new Map<string, number>();
  readonly #prefix: string;
  readonly #requests: number;

  constructor(redis: Redis, options: RateLimitOptions) {
    this.#prefix = options.prefix ?? "am:rl";
    this.#requests = options.requests;
    this.#limiter = new Ratelimit({
      redis,
      limiter: Ratelimit.slidingWindow(options.requests, `${options.windowMs} ms`),
      prefix: this.#prefix,
      ephemeralCache: this.#blocked,
      analytics: false,
      // Our own clients time out; a limiter that cannot answer lets the request through.
      timeout: 0,
    });
  }

  async check(counts: readonly RateCount[]): Promise<RateDecision> {
    // Every identifier's units in one EVALSHA each, pipelined together: a batch costs no extra round trip.
    const results = await Promise.all(counts.map(({ id, units }) => this.#limiter.limit(id, { rate: units })));
    return tightest(
      results.map((r) => ({ allowed: r.success, limit: r.limit, remaining: r.remaining, reset: r.reset })),
      this.#requests,
    );
  }

  knownBlocked(ids: readonly string[]): RateDecision | null {
    const now = Date.now();
    for (const id of ids) {
      // The library's cache keys are its own keys: `${prefix}:${identifier}` -> reset (ms).
      const reset = this.#blocked.get(`${this.#prefix}:${id}`);
      if (reset !== undefined && reset > now) return { allowed: false, limit: this.#requests, remaining: 0, reset };
    }
    return null;
  }
}

/** The decision that binds: a refusal if there is one, else the one with the fewest requests left. */
function tightest(decisions: RateDecision[], requests: number): RateDecision {
  const refused = decisions.filter((d) => !d.allowed).sort((a, b) => b.reset - a.reset)[0];
  if (refused) return refused;
  return (
    decisions.sort((a, b) => a.remaining - b.remaining)[0] ?? { allowed: true, limit: requests, remaining: requests, reset: Date.now() }
  );
}
