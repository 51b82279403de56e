/** @module The access guard: collects the ids a /v1 request names (its matched route's, and its body's) and applies the domain's access rules. */
import type { Context, MiddlewareHandler } from "hono";
import { decideAccess, decideSessionOwner, type AccessTarget } from "../../memory/access/index.ts";
import { isValidId } from "../../memory/ids.ts";
import type { AppEnv } from "../context-types.ts";
import { ApiError } from "../errors.ts";

/**
 * The users a JSON body names: a native route's `userId`, and the proxy's `user` field (an
 * OpenAI-style client names its end user there). The parsed body is cached, so the route's
 * validator does not parse it again; a body of undeclared or too large a size is not read here
 * (the route then checks the user it acts for, see `actingUser`). Raw values: the caller
 * validates them.
 */
async function bodyUsers(c: Context<AppEnv>): Promise<{ userId: unknown; user: unknown }> {
  const none = { userId: undefined, user: undefined };
  if (c.req.method !== "POST" || !/json/i.test(c.req.header("content-type") ?? "")) return none;
  const size = Number(c.req.header("content-length") ?? Number.NaN);
  if (!(size <= c.get("runtime").config.limits.maxBodyBytes)) return none;
  const body: unknown = await c.req.json().catch(() => null);
  if (typeof body !== "object" || body === null) return none;
  return { userId: "userId" in body ? body.userId : undefined, user: "user" in body ? body.user : undefined };
}

/**
 * Every user a request names, wherever it names them (path, `userId` query, `X-Memory-User`, the
 * body's `userId` or `user`), plus a token's own: the rate limit counts each, so no spelling of
 * the user escapes it. Only valid ids: anything else never becomes a key (the route refuses it).
 */
function namedUsers(c: Context<AppEnv>, target: AccessTarget, body: { userId: unknown; user: unknown }): string[] {
  const principal = c.get("principal");
  const candidates: unknown[] = [target.userId, c.req.query("userId"), c.req.header("x-memory-user"), body.userId, body.user];
  if (principal.kind === "token") candidates.push(principal.userId);
  return [...new Set(candidates.filter(isValidId))];
}

/**
 * Applies the domain's access rules to every `/v1` request in one place: the route's class,
 * the principal, the ids the request names. A refusal is 403 and goes to the audit log (throttled).
 */
export function accessGuard(): MiddlewareHandler<AppEnv> {
  return async function guard(c, next) {
    // The route and the ids the path, query and headers name were read once, by `routeMatch`.
    const op = c.get("route")?.access ?? null;
    const target: AccessTarget = { ...c.get("target") };
    const body = await bodyUsers(c);
    if (target.userId === undefined && isValidId(body.userId)) target.userId = body.userId;
    c.set("target", target);
    c.set("users", namedUsers(c, target, body));
    const principal = c.get("principal");
    let decision = decideAccess(principal, op, target, c.req.method === "GET");
    // A token's session must not be another user's, and a user token's must be its user's (one
    // script call; keys skip it).
    if (decision.allowed && principal.kind === "token" && target.sessionId !== undefined) {
      const { exists, owner } = await c.get("memory").sessionOwnership(target.sessionId);
      decision = decideSessionOwner(principal, owner, { exists, op });
    }
    if (!decision.allowed) {
      // Only valid ids reach the log (a refused request may name anything).
      const logged = {
        userId: isValidId(target.userId) ? target.userId : undefined,
        sessionId: isValidId(target.sessionId) ? target.sessionId : undefined,
      };
      c.get("memory").audit("access.denied", logged, { method: c.req.method, path: c.req.path.slice(0, 200), reason: decision.reason });
      throw new ApiError(403, "forbidden", decision.reason);
    }
    await next();
  };
}
