import { createRoute } from "@hono/zod-openapi";
import type { Fact } from "../../memory/types.ts";
import { createRouter } from "../router.ts";
import { UserParams, errorResponses, jsonResponse, AnyObject, security } from "../schemas/common.ts";
import { requireFacts } from "./facts.ts";


const exportRoute = createRoute({
  method: "get",
  path: "/v1/users/{userId}/export",
  summary: "Everything stored about a user: facts and sessions (window, summary, archive, notes)",
  security,
  request: { params: UserParams },
  responses: { 200: jsonResponse(AnyObject, "The user's data"), ...errorResponses },
});

const eraseRoute = createRoute({
  method: "delete",
  path: "/v1/users/{userId}",
  summary: "Erase a user everywhere: sessions, archives, working memory, facts",
  security,
  request: { params: UserParams },
  responses: { 200: jsonResponse(AnyObject, "Counts of what was removed"), ...errorResponses },
});

/** Archived originals read per history page when exporting. */
const EXPORT_PAGE = 1000;

export function userRoutes() {
  const app = createRouter();

  app.openapi(exportRoute, async (c) => {
    const { userId } = c.req.valid("param");
    const tenant = c.get("tenant");
    const deps = c.get("deps");
    const sessions = deps.sessions();
    const working = deps.working();
    const ids = await sessions.userSessions(tenant, userId);
    const exported = [];
    for (const sessionId of ids) {
      const ref = { tenant, sessionId };
      const [snapshot, notes, scratchpad] = await Promise.all([sessions.read(ref), working.getNotes(ref), working.getScratch(ref)]);
      if (!snapshot.exists) continue;
      const archived = [];
      for (let offset = 0; ; offset += EXPORT_PAGE) {
        const page = await sessions.history(ref, { offset, limit: EXPORT_PAGE });
        archived.push(...page.archived);
        if (page.archived.length < EXPORT_PAGE) break;
      }
      exported.push({ sessionId, system: snapshot.system, window: snapshot.window, summary: snapshot.summary, archived, notes, scratchpad, meta: snapshot.meta });
    }
    const facts: Fact[] = [];
    if (deps.facts) {
      let cursor = "";
      do {
        const page = await deps.facts.list({ tenant, userId }, cursor, 1000);
        facts.push(...page.facts);
        cursor = page.facts.length > 0 ? page.nextCursor : "";
      } while (cursor !== "");
    }
    return c.json({ userId, exportedAt: new Date().toISOString(), sessions: exported, facts }, 200);
  });

  app.openapi(eraseRoute, async (c) => {
    const { userId } = c.req.valid("param");
    const tenant = c.get("tenant");
    const deps = c.get("deps");
    // Facts first: if Vector is down the request fails before any session is touched, and a retry
    // erases everything; sessions are erased one by one, each atomically.
    const facts = await requireFacts(c).deleteAll({ tenant, userId });
    const sessions = deps.sessions();
    const ids = await sessions.userSessions(tenant, userId);
    let erased = 0;
    for (const sessionId of ids) {
      if (await sessions.destroy({ tenant, sessionId })) erased += 1;
    }
    return c.json({ userId, erased: true, sessions: erased, facts }, 200);
  });

  return app;
}
