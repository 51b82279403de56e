/** @module Matches a request to its defined route once, and reads the ids it names (path, query, headers) for every later step. */
import type { MiddlewareHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { AccessTarget } from "../../memory/access/index.ts";
import { isValidId } from "../../memory/ids.ts";
import type { AppEnv } from "../context-types.ts";
import type { DefinedRoute } from "../route-def.ts";
import { ROUTES } from "../routes/registry.ts";

// Every route by its own definition: a route is classified where it is declared (see `defineRoute`).
const router = new TrieRouter<DefinedRoute>();
for (const route of ROUTES) router.add(route.method, route.path.replace(/\{(\w+)\}/g, ":$1"), route);

function decoded(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The route a request asks for (undefined when none matches) and the ids its path, query and headers name (raw). */
export function matchRoute(
  method: string,
  path: string,
  query: (name: string) => string | undefined,
  header: (name: string) => string | undefined,
): { route: DefinedRoute | undefined; target: AccessTarget } {
  const match = router.match(method, path)[0]?.[0] as [DefinedRoute, Record<string, string>] | undefined;
  const params = match?.[1] ?? {};
  const target: AccessTarget = {
    userId: decoded(params.userId) ?? query("userId") ?? header("x-memory-user"),
    sessionId: decoded(params.sessionId) ?? header("x-memory-session"),
  };
  return { route: match?.[0], target };
}

/**
 * Sets the request's route, the ids it names and its session (when a valid id: it goes into the
 * request's logs) once, before the runtime is built: the logs, the access guard and the rate
 * limiter read them from the context.
 */
export function routeMatch(): MiddlewareHandler<AppEnv> {
  return async function matchRequest(c, next) {
    const { route, target } = matchRoute(
      c.req.method,
      c.req.path,
      (n) => c.req.query(n),
      (n) => c.req.header(n),
    );
    c.set("route", route);
    c.set("target", target);
    c.set("session", isValidId(target.sessionId) ? target.sessionId : undefined);
    await next();
  };
}
