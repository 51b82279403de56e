import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../router.ts";
import { AnyObject, errorResponses, jsonResponse, security } from "../schemas/common.ts";

const route = createRoute({
  method: "get",
  path: "/v1/models",
  summary: "OpenAI-compatible model list: the LLM's, passed through (or the configured model when it lists none)",
  security,
  responses: { 200: jsonResponse(AnyObject, "`{object: \"list\", data: [{id, object, created, owned_by}]}`"), ...errorResponses },
});

/** `GET /v1/models`, so OpenAI-compatible frontends can connect and pick a model. */
export function modelRoutes() {
  const app = createRouter();
  app.openapi(route, async (c) => c.json(await c.get("memory").models(), 200));
  return app;
}
