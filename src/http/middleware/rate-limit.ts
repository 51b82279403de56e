/** @module Rate-limit middleware: counts each request (each MCP tool call) per credential and per named user, with RateLimit headers and 429. */
import type { Context, MiddlewareHandler } from "hono";
import type { Principal } from "../../memory/access/index.ts";
import { isValidId } from "../../memory/ids.ts";
import type { RateCount, RateDecision } from "../../memory/ports/index.ts";
import type { AppEnv, RateCost } from "../context-types.ts";
import { ApiError } from "../errors.ts";
import { renderError } from "../on-error.ts";

/** One unit against the credential and each user: the cost of a `/v1` request. */
export function singleCost(users: readonly string[]): RateCost {
  return { credential: 1, users: new Map(users.map((u) => [u, 1])) };
}

/**
 * The identifiers a request counts against, with their units: its credential and every user it
 * names (valid ids only, see the access guards); a token always counts at least once against its
 * own user.
 */
export function limitCounts(principal: Principal, cost: RateCost): RateCount[] {
  const credential = principal.kind === "key" ? `k:${principal.keyId}` : `t:${principal.tenant}:${principal.tokenId}`;
  const users = new Map([...cost.users].filter(([u, units]) => isValidId(u) && units > 0));
  if (principal.kind === "token") users.set(principal.userId, Math.max(1, users.get(principal.userId) ?? 0));
  return [
    { id: credential, units: Math.max(1, cost.credential) },
    ...[...users].map(([u, units]) => ({ id: `u:${principal.tenant}:${u}`, units })),
  ];
}

function limitHeaders(d: RateDecision, now: number): Record<string, string> {
  const seconds = Math.max(0, Math.ceil((d.reset - now) / 1000));
  return { "ratelimit-limit": String(d.limit), "ratelimit-remaining": String(d.remaining), "ratelimit-reset": String(seconds) };
}

function tooMany(d: RateDecision): ApiError {
  const now = Date.now();
  const headers = limitHeaders(d, now);
  return new ApiError(429, "rate_limited", `rate limit of ${d.limit} requests exceeded; retry after ${headers["ratelimit-reset"]} s`, {
    headers: { ...headers, "retry-after": String(Math.max(1, Number(headers["ratelimit-reset"]))) },
  });
}

/**
 * `RATE_LIMIT` per credential and per user. A client already refused in this isolate is refused
 * at once. Otherwise a write waits for the check before it touches anything; a read or a chat turn
 * starts the check next to its own first Redis request (the client pipelines both identifiers
 * into one request) and acts on it before it answers, and a chat turn before it calls the LLM
 * (see {@link admit}): no round trip is added in sequence on their critical path.
 */
export function rateLimit(): MiddlewareHandler<AppEnv> {
  return async function limit(c, next) {
    const limiter = c.get("runtime").rateLimiter;
    if (!limiter) return next();
    // The MCP guard prices a body by its tool calls; a `/v1` request costs one unit per identifier.
    const counts = limitCounts(c.get("principal"), c.get("rateCost") ?? singleCost(c.get("users") ?? []));
    const known = limiter.knownBlocked(counts.map((n) => n.id));
    if (known) throw tooMany(known);
    const pending = limiter.check(counts).catch((err: unknown) => {
      // A limiter that cannot answer lets the request through: Redis being down fails the request anyway.
      c.get("runtime").logger.warn("rate limit check failed", { error: String(err).slice(0, 200) });
      return null;
    });
    // Reads and the routes that call `admit` (their definition says so) check in parallel with their own first Redis call.
    if (c.req.method !== "GET" && c.get("route")?.parallelAdmit !== true) {
      const decision = await pending;
      if (decision && !decision.allowed) throw tooMany(decision);
      await next();
      if (decision) setHeaders(c, decision);
      return;
    }
    c.set("admission", pending);
    await next();
    const decision = await pending;
    if (!decision) return;
    if (!decision.allowed && c.res.status !== 429) {
      // The answer was computed but is not given: a refused read returns nothing.
      c.res = undefined;
      c.res = renderError(tooMany(decision), c);
      return;
    }
    setHeaders(c, decision);
  };
}

function setHeaders(c: Context<AppEnv>, decision: RateDecision): void {
  try {
    for (const [name, value] of Object.entries(limitHeaders(decision, Date.now()))) c.res.headers.set(name, value);
  } catch {
    // An immutable response (a passed-through stream) keeps its headers.
  }
}

/** Waits for the request's rate-limit check; throws 429 when it refused. Call before an LLM call. */
export async function admit(c: Context<AppEnv>): Promise<void> {
  const decision = await c.get("admission");
  if (decision && !decision.allowed) throw tooMany(decision);
}
