import { createRoute } from "@hono/zod-openapi";
import { ApiError } from "../errors.ts";
import { createRouter } from "../router.ts";
import { CHAT_EXAMPLES, ModelListSchema } from "../schemas/chat-responses.ts";
import { errors, jsonResponse, security } from "../schemas/common.ts";

const route = createRoute({
  method: "get",
  path: "/v1/models",
  summary: "OpenAI-compatible model list: the LLM's, passed through (or the configured model when it lists none)",
  security,
  responses: { 200: jsonResponse(ModelListSchema, "The upstream's model list", CHAT_EXAMPLES.models), ...errors(401, 502, 503) },
});

/** `GET /v1/models`, so OpenAI-compatible frontends can connect and pick a model. */
export function modelRoutes() {
  const app = createRouter();
  app.openapi(route, async (c) => {
    // Passed through as the upstream sent it, once it is the list the contract promises.
    const listed = ModelListSchema.safeParse(await c.get("memory").models());
    if (!listed.success) throw new ApiError(502, "llm_failed", "the LLM's model list is not an OpenAI model list", { details: { kind: "bad_output" } });
    return c.json(listed.data, 200);
  });
  return app;
}
