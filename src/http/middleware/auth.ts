import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env.ts";
import { tenantForKey } from "../api-keys.ts";
import { ApiError } from "../errors.ts";

/** Maps `Authorization: Bearer <key>` to a tenant; every later key and namespace carries it. */
export function bearerAuth(): MiddlewareHandler<AppEnv> {
  return async function auth(c, next) {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const tenant = match?.[1] ? tenantForKey(c.get("config").apiKeys, match[1]) : null;
    if (!tenant) {
      throw new ApiError(401, "unauthorized", "a valid API key is required: Authorization: Bearer <key>", {
        headers: { "www-authenticate": 'Bearer realm="agent-memory"' },
      });
    }
    c.set("tenant", tenant);
    await next();
  };
}
