/** @module Types of the Hono context: the per-request variables middleware sets and the runtime factory signature. */
import type { AccessTarget, Principal } from "../memory/access/index.ts";
import type { TenantMemory } from "../memory/tenant-memory.ts";
import type { RateCost, RateDecision } from "./middleware/rate-limit.ts";
import type { Bindings } from "../worker/env.ts";
import type { Runtime } from "../worker/request-runtime.ts";
import type { DefinedRoute } from "./route-def.ts";

/** Builds a request's runtime from the Worker's bindings and execution context. */
export type RuntimeFactory = (
  env: object,
  ctx: { waitUntil(promise: Promise<unknown>): void } | undefined,
  request?: { requestId?: string; session?: string | undefined },
) => Runtime;

/** Per-request values set by middleware. */
export interface Variables {
  /** This request's id (the client's `X-Request-Id` when it sent a sane one); set first. */
  requestId: string;
  /** The session the request names (path or `X-Memory-Session`), when it is a valid id; for logs. */
  session: string | undefined;
  runtime: Runtime;
  /** The tenant the credential grants; set by the auth middleware. */
  tenant: string;
  /** Who is calling: a tenant key (with its role) or a user token; set by the auth middleware. */
  principal: Principal;
  /** The tenant's use cases; set by the auth middleware. */
  memory: TenantMemory;
  /** The route the request matched, with its facts (undefined: none); set by the access guard. */
  route: DefinedRoute | undefined;
  /** The ids the request names (path, query, headers, JSON body); set by the access guard. */
  target: AccessTarget;
  /** Every valid user id the request names, however it names them (for the rate limit); set by the access guard. */
  users: readonly string[];
  /** What the request costs against its rate limits when not one unit per identifier; set by the MCP access guard. */
  rateCost: RateCost | undefined;
  /** The rate-limit check running alongside the request (null: no limit, or it could not answer). */
  admission: Promise<RateDecision | null> | undefined;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
