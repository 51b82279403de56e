/** @module The GET /v1/users/{userId}/sessions route: a user's sessions, newest activity first, page by page. */
import { z } from "@hono/zod-openapi";
import { MAX_SESSIONS_PER_PAGE } from "../../memory/sessions/index.ts";
import { userRead } from "../access-table.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { UserParams, errorResponses, jsonResponse, queryInt, security } from "../schemas/common.ts";
import { USER_EXAMPLES, UserSessionsSchema } from "../schemas/user-responses.ts";

const route = defineRoute(
  {
    method: "get",
    path: "/v1/users/{userId}/sessions",
    summary: "The sessions a user owns, newest activity first: id, created, last activity, message count, title",
    security,
    request: {
      params: UserParams,
      query: z.object({
        cursor: z
          .string()
          .regex(/^\d{1,9}$/, "must be the nextCursor of the previous page")
          .optional(),
        limit: queryInt(1, MAX_SESSIONS_PER_PAGE).optional(),
      }),
    },
    responses: {
      200: jsonResponse(UserSessionsSchema, "One page of the user's sessions, newest activity first", USER_EXAMPLES.sessions),
      ...errorResponses,
    },
  },
  {
    access: userRead,
    doc: {
      operationId: "listUserSessions",
      tag: "Users",
      description:
        "The user's sessions, newest activity first, with created and last-activity times, message count and a short title; paged with `cursor` and `limit`.",
    },
  },
);

/** A chat sidebar's list; follow `nextCursor` until it is null (a page may hold fewer than `limit`). */
export function userSessionRoutes() {
  const app = createRouter();
  app.openapi(route.route, async (c) => {
    const { userId } = c.req.valid("param");
    const { cursor, limit } = c.req.valid("query");
    return c.json(await c.get("memory").userSessions(userId, { cursor, limit }), 200);
  });
  return app;
}

/** The routes this module mounts, for the route registry. */
export const userSessionRouteDefs: readonly DefinedRoute[] = [route];
