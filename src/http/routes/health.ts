/** @module The GET /healthz route: checks Redis and Vector without an API key. */
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { errors, jsonResponse } from "../schemas/common.ts";
import { HEALTH_EXAMPLES, HealthSchema } from "../schemas/health-responses.ts";

const route = defineRoute(
  {
    method: "get",
    path: "/healthz",
    summary: "Health of Redis and Vector (no API key)",
    // Probes and load balancers call it without a key.
    security: [],
    responses: {
      200: jsonResponse(HealthSchema, "Both stores answer", HEALTH_EXAMPLES.ok),
      503: jsonResponse(HealthSchema, "A store is down; the same report, with Retry-After", HEALTH_EXAMPLES.down),
      ...errors(500),
    },
  },
  {
    // Outside /v1: no credential.
    access: null,
    doc: {
      operationId: "getHealth",
      tag: "Service",
      description:
        "Pings Redis and Vector in parallel: 200 when both answer, else 503 with the same report and Retry-After. Needs no API key.",
    },
  },
);

/** `GET /healthz`: checks Redis and Vector in parallel through the official clients. */
export function healthRoutes() {
  const app = createRouter();
  app.openapi(route.route, async (c) => {
    const health = await c.get("runtime").health();
    return health.ok ? c.json(health, 200) : c.json(health, 503, { "retry-after": "5" });
  });
  return app;
}

/** The routes this module mounts, for the route registry. */
export const healthRouteDefs: readonly DefinedRoute[] = [route];
