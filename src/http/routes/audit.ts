import { createRoute, z } from "@hono/zod-openapi";
import { MAX_AUDIT_PAGE } from "../../memory/audit.ts";
import { createRouter } from "../router.ts";
import { ACCESS_EXAMPLES, AuditPageSchema, type AuditPage } from "../schemas/access-responses.ts";
import { errors, jsonResponse, queryInt, security } from "../schemas/common.ts";

const route = createRoute({
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
  responses: { 200: jsonResponse(AuditPageSchema, "Entries after `since`; pass nextSince as since until it is null", ACCESS_EXAMPLES.audit), ...errors(400, 401, 503) },
});

export function auditRoutes() {
  const app = createRouter();
  app.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const limit = q.limit ?? 100;
    const entries = await c.get("memory").auditLog({ since: q.since ?? 0, limit });
    const last = entries[entries.length - 1];
    return c.json({ entries, nextSince: entries.length >= limit && last ? last.ts : null } satisfies AuditPage, 200);
  });
  return app;
}
