/**
 * @module The rate limiter port: counts a request's units per identifier and says whether it may proceed.
 */

/** The outcome of counting one request against rate limits. */
export interface RateDecision {
  allowed: boolean;
  /** Requests allowed per window. */
  limit: number;
  remaining: number;
  /** Epoch ms when the window frees up. */
  reset: number;
}

/** One identifier a request counts against, and how many units it costs there. */
export interface RateCount {
  id: string;
  /** Units taken from the identifier's window (a JSON-RPC batch of tool calls costs one per call). */
  units: number;
}

/**
 * Sliding-window limits per identifier (a credential, a user). The HTTP layer decides what a
 * request costs and acts on the decision; a store adapter counts.
 */
export interface RateLimiter {
  /** Counts every identifier's units (one round trip); the tightest result wins. */
  check(counts: readonly RateCount[]): Promise<RateDecision>;
  /** A refusal known in this isolate without asking Redis (an identifier blocked until its reset), else null. */
  knownBlocked(ids: readonly string[]): RateDecision | null;
}
