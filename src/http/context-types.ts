/**
 * @module Types of the Hono context: the per-request variables middleware sets, and the request runtime the HTTP layer needs (the Worker builds it).
 */
import type { AccessTarget, Principal } from "../memory/access/index.ts";
import type { AuditActor, Trace, TraceKind } from "../memory/observe/index.ts";
import type { MemoryLogger, RateDecision, RateLimiter } from "../memory/ports/index.ts";
import type { TenantMemory } from "../memory/tenant-memory.ts";
import type { DefinedRoute } from "./route-def.ts";
import type { Health } from "./schemas/health-responses.ts";

/** One API key, the tenant it grants and what it may do. */
export interface ApiKey {
  tenant: string;
  key: string;
  /** `read`: reads only (a dashboard); `full`: everything in the tenant. */
  role: Extract<Principal, { kind: "key" }>["role"];
}

/** The part of the configuration the HTTP layer reads. */
export interface HttpConfig {
  apiKeys: readonly ApiKey[];
  /** Signs user tokens; undefined: `POST /v1/tokens` is off and no token is accepted. */
  tokenSecret: string | undefined;
  /** Origins allowed by CORS; empty: no CORS. */
  corsOrigins: string[];
  limits: { maxBodyBytes: number };
}

/** How a finished request is described in its log line and its metrics. */
export interface RequestOutcome {
  route: string;
  method: string;
  status: number;
  durationMs: number;
}

/** One request's trace, metrics and log context, as the HTTP layer drives it. */
export interface RequestObserver {
  /** The tenant the request acts for, once authenticated. */
  set tenant(tenant: string);
  /** The turn's trace; its id is null until a trace begins. */
  readonly trace: { readonly traceId: string | null };
  /** Starts the turn's trace; returns its id, or null when tracing is off and nobody asked. */
  beginTrace(kind: TraceKind, session: { sessionId: string; userId?: string | undefined }, inline: boolean): string | null;
  /** The trace to put in the response body, when the client asked for it. */
  inlineTrace(): Trace | null;
  /** Logs the request's one line and writes what it observed, after the response. */
  finish(outcome: RequestOutcome): void;
}

/** What one request may use; the composition root builds it (see `RuntimeFactory`). */
export interface RequestRuntime {
  config: HttpConfig;
  /** The use cases of one tenant for this request, on behalf of `actor` (the audit log names it). */
  memory(tenant: string, actor: AuditActor): TenantMemory;
  /** Null when no rate limit is configured. */
  rateLimiter: RateLimiter | null;
  health(): Promise<Health>;
  /** Hands work to `ctx.waitUntil`; failures are logged, never thrown. */
  background(work: Promise<unknown>): void;
  /** This request's id, trace, metrics and log context. */
  observe: RequestObserver;
  /** Logs with the request's id, tenant and session. */
  logger: MemoryLogger;
}

/**
 * Builds a request's runtime from the Worker's bindings and execution context. Throws a
 * `ConfigError` (500 `config_invalid`) when the bindings do not make a valid configuration.
 */
export type RuntimeFactory = (
  env: object,
  ctx: { waitUntil(promise: Promise<unknown>): void } | undefined,
  request?: { requestId?: string; session?: string | undefined },
) => RequestRuntime;

/**
 * What a request costs: units against its credential and against each user it names. A `/v1`
 * request costs one of each; a `/mcp` body costs one per tool call (see the MCP access guard).
 */
export interface RateCost {
  /** Units against the credential. */
  credential: number;
  /** Units per named user id (only valid ids become identifiers). */
  users: ReadonlyMap<string, number>;
}

/** Per-request values set by middleware. */
export interface Variables {
  /** This request's id (the client's `X-Request-Id` when it sent a sane one); set first. */
  requestId: string;
  /** The session the request names (its route's path or `X-Memory-Session`), when it is a valid id; for logs. Set by the route match. */
  session: string | undefined;
  runtime: RequestRuntime;
  /** The tenant the credential grants; set by the auth middleware. */
  tenant: string;
  /** Who is calling: a tenant key (with its role) or a user token; set by the auth middleware. */
  principal: Principal;
  /** The tenant's use cases; set by the auth middleware. */
  memory: TenantMemory;
  /** The route the request matched, with its facts (undefined: none); set by the route match. */
  route: DefinedRoute | undefined;
  /** The ids the request names: path, query and headers (set by the route match), then the JSON body's (the access guard). */
  target: AccessTarget;
  /** Every valid user id the request names, however it names them (for the rate limit); set by the access guard. */
  users: readonly string[];
  /** What the request costs against its rate limits when not one unit per identifier; set by the MCP access guard. */
  rateCost: RateCost | undefined;
  /** The rate-limit check running alongside the request (null: no limit, or it could not answer). */
  admission: Promise<RateDecision | null> | undefined;
}

export interface AppEnv {
  /** The Worker's bindings: only the runtime factory reads them. */
  Bindings: object;
  Variables: Variables;
}
