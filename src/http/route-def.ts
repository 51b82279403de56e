/** @module defineRoute and RouteFacts: a route's OpenAPI config together with its access class, reference docs and example. */
import { createRoute } from "@hono/zod-openapi";
import type { OperationClass } from "../memory/access/index.ts";
import type { OperationDoc } from "./docs/operations.ts";

type RouteConfig = Parameters<typeof createRoute>[0];

/**
 * What a route is besides its schemas, stated next to them so nothing is keyed by "METHOD path"
 * elsewhere: the access guard, the API reference and the rate limiter read it from the route
 * registry (`routes/registry.ts`).
 */
export interface RouteFacts {
  /**
   * What the route needs under the access rules (see `decideAccess`); null: outside `/v1`, no
   * credential is asked for. Required, so a new route is classified on purpose.
   */
  access: OperationClass | null;
  /** Its `operationId`, tag and description in the API reference (where `createRoute` sets none). */
  doc: OperationDoc;
  /** The reference's example request body (where the body's schema shows none). */
  example?: unknown;
  /**
   * The handler calls `admit` before the LLM: the rate-limit check then runs beside the request's
   * first Redis call instead of before it (see `rateLimit`). Only for routes that call `admit`.
   */
  parallelAdmit?: boolean;
}

/** A route: the `createRoute` config the router mounts, and its facts. */
export interface DefinedRoute<R = unknown> extends RouteFacts {
  route: R;
  /** Upper case, as requests name it. */
  method: string;
  /** As in the OpenAPI document: `/v1/sessions/{sessionId}`. */
  path: string;
}

/** A route with its facts; mount `.route` with `app.openapi`. */
export function defineRoute<P extends string, R extends Omit<RouteConfig, "path"> & { path: P }>(config: R, facts: RouteFacts) {
  const route = createRoute<P, R>(config);
  return { ...facts, route, method: config.method.toUpperCase(), path: config.path } satisfies DefinedRoute<typeof route>;
}
