/** @module The user-level routes: export everything stored about a user, erase a user, restore facts from backup. */
import { z } from "@hono/zod-openapi";
import { summaryView } from "../render.ts";
import { tenantRead, tenantWrite } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { UserParams, errorResponses, errors, jsonResponse, security } from "../schemas/common.ts";
import {
  RESTORE_EXAMPLE,
  RestoredSchema,
  USER_EXAMPLES,
  UserErasedSchema,
  UserExportSchema,
  type Restored,
  type UserErased,
} from "../schemas/user-responses.ts";

const exportRoute = defineRoute(
  {
    method: "get",
    path: "/v1/users/{userId}/export",
    summary: "Everything stored about a user, page by page: the user's own sessions (window, summary, archive, notes), then facts",
    security,
    request: { params: UserParams, query: z.object({ cursor: z.string().max(80).optional() }) },
    responses: {
      200: jsonResponse(UserExportSchema, "One page of the user's data; follow nextCursor until it is null", USER_EXAMPLES.export),
      ...errorResponses,
    },
  },
  {
    // Tenant keys only: a token never exports or erases anyone, not even its own user.
    access: tenantRead,
    doc: {
      operationId: "exportUser",
      tag: "Users",
      description:
        "One page of everything stored about the user: their own sessions (window, summary, archive, notes), then their facts. Follow `nextCursor` until it is null.",
    },
  },
);

const eraseRoute = defineRoute(
  {
    method: "delete",
    path: "/v1/users/{userId}",
    summary: "Erase a user everywhere: sessions, archives, working memory, facts; 202 while more is left (call again)",
    security,
    request: { params: UserParams },
    responses: {
      200: jsonResponse(
        UserErasedSchema,
        "Everything is gone: the receipt (also in the audit log), with counts of what the whole erase removed",
        USER_EXAMPLES.erased,
      ),
      202: jsonResponse(UserErasedSchema, "Erase in progress: call again to continue (same receiptId, counts so far)", {
        ...USER_EXAMPLES.erased,
        done: false,
      }),
      ...errorResponses,
    },
  },
  {
    // Tenant keys only, as for export.
    access: tenantWrite,
    doc: {
      operationId: "eraseUser",
      tag: "Users",
      description:
        "Erases the user everywhere: sessions, archives, working memory, facts. Answers 202 while more is left: call again until 200. Every request of one erase carries the same `receiptId`; the last answers the receipt (counts of everything removed) and records it in the audit log. An erase is final.",
    },
  },
);

const restoreRoute = defineRoute(
  {
    method: "post",
    path: "/v1/users/{userId}/restore",
    summary: "Restore a user's facts from the newest backup",
    security,
    request: { params: UserParams },
    responses: {
      200: jsonResponse(RestoredSchema, "What was restored", RESTORE_EXAMPLE),
      ...errors(400, 401, 404, 409, 503),
    },
  },
  {
    access: tenantWrite,
    doc: {
      operationId: "restoreUserFacts",
      tag: "Users",
      description:
        "Restores the user's facts from the newest backup snapshot: facts missing now are written back with their ids, facts that exist are left as they are, so calling it again changes nothing. 404 without a snapshot, 409 for an erased user (never restored), 503 when backups are off.",
    },
  },
);

export function userRoutes() {
  const app = createRouter();

  app.openapi(exportRoute.route, async (c) => {
    const { userId } = c.req.valid("param");
    const page = await c.get("memory").exportUser(userId, c.req.valid("query").cursor);
    const sessions = page.sessions.map(({ sessionId, snapshot, archived, notes, scratchpad, turns }) => {
      const { system, window, summary, meta } = snapshot;
      return { sessionId, system, window, summary: summaryView(summary), archived, notes, scratchpad, turns, meta };
    });
    return c.json({ ...page, sessions }, 200);
  });

  app.openapi(eraseRoute.route, async (c) => {
    const { userId } = c.req.valid("param");
    const { receiptId, done, erasedAt, removed, deleted } = await c.get("memory").eraseUser(userId);
    return c.json({ userId, receiptId, deleted, done, erasedAt, removed } satisfies UserErased, done ? 200 : 202);
  });

  app.openapi(restoreRoute.route, async (c) => {
    const { userId } = c.req.valid("param");
    const restored: Restored = await c.get("memory").restoreFacts(userId);
    return c.json(restored, 200);
  });

  return app;
}

/** The routes this module mounts, for the route registry. */
export const userRouteDefs: readonly DefinedRoute[] = [exportRoute, eraseRoute, restoreRoute];
