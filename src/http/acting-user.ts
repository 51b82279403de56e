import type { Context } from "hono";
import type { AppEnv } from "./env.ts";
import { ApiError } from "./errors.ts";

/**
 * The user a request acts for: a token's own user (a body naming another is refused), else what
 * the request names. Keeps a token from storing or recalling under another user's id.
 */
export function actingUser(c: Context<AppEnv>, named: string | undefined): string | undefined {
  const principal = c.get("principal");
  if (principal.kind !== "token") return named;
  if (named !== undefined && named !== principal.userId) throw new ApiError(403, "forbidden", "this token belongs to another user");
  return principal.userId;
}
