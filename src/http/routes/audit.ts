/** @module The GET /v1/audit route: pages through the tenant's audit log; tenant keys only. */
import { z } from "@hono/zod-openapi";
import { MAX_AUDIT_PAGE } from "../../memory/observe/index.ts";
import { tenantRead } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { ACCESS_EXAMPLES, AuditPageSchema, type AuditPage } from "../schemas/access-responses.ts";
import { errors, jsonResponse, queryInt, security } from "../schemas/common.ts";

const route = defineRoute(
  {
    method: "get",
    path: "/v1/audit",
    summary: "The tenant's audit log after `since` (epoch ms), oldest first; tenant keys only (read keys too)",
    security,
    request: {
      query: z.object({
        since: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
        limit: queryInt(1, MAX_AUDIT_PAGE).optional(),
      }),
    },
    responses: {
      200: jsonResponse(AuditPageSchema, "Entries after `since`; pass nextSince as since until it is null", ACCESS_EXAMPLES.audit),
      ...errors(400, 401, 503),
    },
  },
  {
    // Contents-free, so dashboard (read) keys may read it; tokens may not.
    access: tenantRead,
    doc: {
      operationId: "listAudit",
      tag: "Access",
      description:
        "The tenant's audit log, oldest first: erases (with their receipts), exports, token mints, fact edits and deletes, settings changes, refusals and auth failures (throttled). Who (key id or token id and user), what, when (epoch ms), which ids; never contents. Page with `since` = the previous `nextSince`.",
    },
  },
);

export function auditRoutes() {
  const app = createRouter();
  app.openapi(route.route, async (c) => {
    const q = c.req.valid("query");
    const limit = q.limit ?? 100;
    const entries = await c.get("memory").auditLog({ since: q.since ?? 0, limit });
    const last = entries[entries.length - 1];
    return c.json({ entries, nextSince: entries.length >= limit && last ? last.ts : null } satisfies AuditPage, 200);
  });
  return app;
}

/** The routes this module mounts, for the route registry. */
export const auditRouteDefs: readonly DefinedRoute[] = [route];
