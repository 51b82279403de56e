/** @module Decides which user a request acts for, refusing a token that names another user (403). */
import type { Context } from "hono";
import { actingUserOf } from "../memory/access/index.ts";
import type { AppEnv } from "./context-types.ts";
import { ApiError } from "./errors.ts";

/**
 * The user a request acts for, decided here for every route (see `actingUserOf`): a token's own
 * user (a request naming another is refused, 403), else what the request names: `named`, the
 * route's own field (a body's or query's `userId`, the proxy's X-Memory-User), or when it names
 * none, `alias`, a weaker name only a tenant key's request goes by (the proxy's OpenAI `user`
 * field; a token's request ignores it). Undefined: none named, and the use case acts for the
 * session's stored owner. Keeps a token from storing or recalling under another user's id.
 */
export function actingUser(c: Context<AppEnv>, named: string | undefined, alias?: () => string | undefined): string | undefined {
  const principal = c.get("principal");
  const acting = actingUserOf(principal, named ?? (principal.kind === "token" ? undefined : alias?.()));
  if ("refused" in acting) throw new ApiError(403, "forbidden", acting.refused);
  return acting.userId;
}
