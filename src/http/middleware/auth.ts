import type { MiddlewareHandler } from "hono";
import type { ApiKeyEntry } from "../../worker/config.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";

const encoder = new TextEncoder();

/**
 * The tenant of a presented key. Compares against every key in constant time per byte so the
 * response time does not reveal how much of a key matched.
 */
export function tenantForKey(entries: readonly ApiKeyEntry[], presented: string): string | null {
  const given = encoder.encode(presented);
  let found: string | null = null;
  for (const entry of entries) {
    const expected = encoder.encode(entry.key);
    let diff = expected.length ^ given.length;
    for (let i = 0; i < expected.length; i++) diff |= expected[i]! ^ (given[i % Math.max(given.length, 1)] ?? 0);
    if (diff === 0) found = entry.tenant;
  }
  return found;
}

/** Maps `Authorization: Bearer <key>` to a tenant and its use cases; every key and namespace carries it. */
export function bearerAuth(): MiddlewareHandler<AppEnv> {
  return async function auth(c, next) {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const runtime = c.get("runtime");
    const tenant = match?.[1] ? tenantForKey(runtime.config.apiKeys, match[1]) : null;
    if (!tenant) {
      throw new ApiError(401, "unauthorized", "a valid API key is required: Authorization: Bearer <key>", {
        headers: { "www-authenticate": 'Bearer realm="agent-memory"' },
      });
    }
    c.set("tenant", tenant);
    runtime.observe.tenant = tenant;
    c.set("memory", runtime.memory(tenant));
    await next();
  };
}
