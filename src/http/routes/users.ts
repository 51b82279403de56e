import { createRoute, z } from "@hono/zod-openapi";
import { summaryView } from "../render.ts";
import { createRouter } from "../router.ts";
import { UserParams, errorResponses, jsonResponse, AnyObject, security } from "../schemas/common.ts";

const exportRoute = createRoute({
  method: "get",
  path: "/v1/users/{userId}/export",
  summary: "Everything stored about a user, page by page: the user's own sessions (window, summary, archive, notes), then facts",
  security,
  request: { params: UserParams, query: z.object({ cursor: z.string().max(80).optional() }) },
  responses: { 200: jsonResponse(AnyObject, "One page of the user's data; follow nextCursor until it is null"), ...errorResponses },
});

const eraseRoute = createRoute({
  method: "delete",
  path: "/v1/users/{userId}",
  summary: "Erase a user everywhere: sessions, archives, working memory, facts; 202 while more is left (call again)",
  security,
  request: { params: UserParams },
  responses: {
    200: jsonResponse(AnyObject, "Everything is gone; counts of what was removed"),
    202: jsonResponse(AnyObject, "Erase in progress: call again to continue"),
    ...errorResponses,
  },
});

const restoreRoute = createRoute({
  method: "post",
  path: "/v1/users/{userId}/restore",
  summary: "Restore a user's facts from the newest backup",
  security,
  request: { params: UserParams },
  responses: {
    200: jsonResponse(
      z.object({
        userId: z.string(),
        snapshotAt: z.number().int().openapi({ description: "When the snapshot was taken, epoch ms" }),
        restored: z.number().int().openapi({ description: "Facts written back (they were missing)" }),
        present: z.number().int().openapi({ description: "Facts of the snapshot that exist already, left as they are" }),
      }),
      "What was restored",
    ),
    ...errorResponses,
  },
});

export function userRoutes() {
  const app = createRouter();

  app.openapi(exportRoute, async (c) => {
    const { userId } = c.req.valid("param");
    const page = await c.get("memory").exportUser(userId, c.req.valid("query").cursor);
    const sessions = page.sessions.map(({ sessionId, snapshot, archived, notes, scratchpad, turns }) => {
      const { system, window, summary, meta } = snapshot;
      return { sessionId, system, window, summary: summaryView(summary), archived, notes, scratchpad, turns, meta };
    });
    return c.json({ ...page, sessions }, 200);
  });

  app.openapi(eraseRoute, async (c) => {
    const { userId } = c.req.valid("param");
    const { done, erasedAt, removed } = await c.get("memory").eraseUser(userId);
    const deleted = Object.values(removed).reduce((sum, n) => sum + n, 0);
    return c.json({ userId, deleted, done, erasedAt, removed }, done ? 200 : 202);
  });

  app.openapi(restoreRoute, async (c) => {
    const { userId } = c.req.valid("param");
    return c.json(await c.get("memory").restoreFacts(userId), 200);
  });

  return app;
}
