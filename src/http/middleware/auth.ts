/** @module The bearer-token middleware: resolves a tenant key or a scoped token into the request's principal, tenant and use cases. */
import type { MiddlewareHandler } from "hono";
import type { Principal } from "../../memory/access/index.ts";
import { auditActor } from "../../memory/observe/index.ts";
import type { ApiKey, AppEnv } from "../context-types.ts";
import { ApiError } from "../errors.ts";
import { checkToken, looksLikeToken } from "../tokens.ts";

const encoder = new TextEncoder();

/**
 * The entry of a presented key. Compares against every key in constant time per byte so the
 * response time does not reveal how much of a key matched.
 */
export function entryForKey(entries: readonly ApiKey[], presented: string): ApiKey | null {
  const given = encoder.encode(presented);
  let found: ApiKey | null = null;
  for (const entry of entries) {
    const expected = encoder.encode(entry.key);
    let diff = expected.length ^ given.length;
    for (let i = 0; i < expected.length; i++) diff |= expected[i]! ^ (given[i % Math.max(given.length, 1)] ?? 0);
    if (diff === 0) found = entry;
  }
  return found;
}

const keyIds = new Map<string, string>();

/** A key's name in logs and the audit log: `k_` + 12 hex digits of its SHA-256 (never the key). */
export async function keyId(key: string): Promise<string> {
  const cached = keyIds.get(key);
  if (cached) return cached;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(key)));
  const id = `k_${[...digest.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  keyIds.set(key, id);
  return id;
}

const unauthorized = (message: string): ApiError =>
  new ApiError(401, "unauthorized", message, { headers: { "www-authenticate": 'Bearer realm="agent-memory"' } });

/**
 * Maps `Authorization: Bearer <key or token>` to a principal, its tenant and its use cases. A
 * failure with a known tenant (an expired token: its signature was good) goes to that tenant's
 * audit log (throttled); one with no trustworthy tenant only to the JSON log.
 */
export function bearerAuth(): MiddlewareHandler<AppEnv> {
  return async function auth(c, next) {
    const header = c.req.header("authorization") ?? "";
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    const runtime = c.get("runtime");
    const entry = presented ? entryForKey(runtime.config.apiKeys, presented) : null;
    let principal: Principal | null = null;
    if (entry && presented) {
      principal = { kind: "key", tenant: entry.tenant, keyId: await keyId(presented), role: entry.role };
    } else if (presented && looksLikeToken(presented) && runtime.config.tokenSecret) {
      const check = await checkToken(presented, runtime.config.tokenSecret, Date.now());
      const configured = (tenant: string) => runtime.config.apiKeys.some((k) => k.tenant === tenant);
      if (!check.ok) {
        if (check.principal && configured(check.principal.tenant)) {
          const { tenant } = check.principal;
          runtime
            .memory(tenant, auditActor(check.principal))
            .audit(
              "auth.failed",
              { userId: check.principal.kind === "token" ? check.principal.userId : undefined },
              { reason: check.reason, path: c.req.path },
            );
        } else {
          runtime.logger.warn("auth failed", { reason: check.reason, path: c.req.path });
        }
        throw unauthorized(check.reason === "expired" ? "this token has expired; mint a new one" : "invalid token");
      }
      // A good signature is not enough: the token's tenant must be one API_KEYS configures now.
      if (!configured(check.principal.tenant)) {
        runtime.logger.warn("auth failed", { reason: "unknown_tenant", path: c.req.path });
        throw unauthorized("invalid token");
      }
      principal = check.principal;
    }
    if (!principal) {
      runtime.logger.warn("auth failed", { reason: presented ? "unknown_key" : "missing", path: c.req.path });
      throw unauthorized("a valid API key or token is required: Authorization: Bearer <key>");
    }
    c.set("principal", principal);
    c.set("tenant", principal.tenant);
    runtime.observe.tenant = principal.tenant;
    c.set("memory", runtime.memory(principal.tenant, auditActor(principal)));
    await next();
  };
}
