/** @module The registry of every route the app mounts with its facts, which the access guard, docs and rate limiter look up. */
import type { DefinedRoute } from "../route-def.ts";
import { auditRouteDefs } from "./audit.ts";
import { chatRouteDefs } from "./chat.ts";
import { completionRouteDefs } from "./completions.ts";
import { factRouteDefs } from "./facts.ts";
import { healthRouteDefs } from "./health.ts";
import { messageRouteDefs } from "./messages.ts";
import { modelRouteDefs } from "./models.ts";
import { traceAndStatsRouteDefs } from "./traces-stats.ts";
import { sessionRouteDefs } from "./sessions.ts";
import { tokenRouteDefs } from "./tokens.ts";
import { userSessionRouteDefs } from "./user-sessions.ts";
import { userRouteDefs } from "./users.ts";
import { workingRouteDefs } from "./working.ts";

/**
 * Every route the app mounts with its facts (access class, reference docs, example, parallel
 * admission), read from the route modules themselves: the access guard, the API reference and
 * the rate limiter look a route up here instead of keeping tables of their own.
 */
export const ROUTES: readonly DefinedRoute[] = [
  ...healthRouteDefs,
  ...messageRouteDefs,
  ...sessionRouteDefs,
  ...workingRouteDefs,
  ...factRouteDefs,
  ...userRouteDefs,
  ...userSessionRouteDefs,
  ...chatRouteDefs,
  ...completionRouteDefs,
  ...modelRouteDefs,
  ...traceAndStatsRouteDefs,
  ...tokenRouteDefs,
  ...auditRouteDefs,
];

/** "METHOD path", as the OpenAPI document names an operation: `POST /v1/sessions/{sessionId}/chat`. */
export const routeKey = (route: { method: string; path: string }): string => `${route.method} ${route.path}`;

const byKey = new Map(ROUTES.map((route) => [routeKey(route), route]));

/** The route of an operation of the OpenAPI document, by its method and templated path. */
export const routeByKey = (method: string, path: string): DefinedRoute | undefined => byKey.get(`${method.toUpperCase()} ${path}`);
