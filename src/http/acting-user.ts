import type { Context } from "hono";
import { actingUserOf } from "../memory/access.ts";
import type { AppEnv } from "./env.ts";
import { ApiError } from "./errors.ts";

/**
 * The user a request acts for (see `actingUserOf`): a token's own user (a request naming another
 * is refused, 403), else what the request names. Keeps a token from storing or recalling under
 * another user's id.
 */
export function actingUser(c: Context<AppEnv>, named: string | undefined): string | undefined {
  const acting = actingUserOf(c.get("principal"), named);
  if ("refused" in acting) throw new ApiError(403, "forbidden", acting.refused);
  return acting.userId;
}
