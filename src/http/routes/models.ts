/** @module The OpenAI-compatible GET /v1/models route: passes the LLM's model list through for frontends. */
import { LlmError } from "../../memory/errors.ts";
import { ApiError } from "../errors.ts";
import { defineRoute, type DefinedRoute } from "../route-def.ts";
import { createRouter } from "../router.ts";
import { CHAT_EXAMPLES, ModelListSchema } from "../schemas/chat-responses.ts";
import { errors, jsonResponse, security } from "../schemas/common.ts";

const route = defineRoute(
  {
    method: "get",
    path: "/v1/models",
    summary: "OpenAI-compatible model list: the LLM's, passed through (or the configured model when it lists none)",
    security,
    responses: { 200: jsonResponse(ModelListSchema, "The upstream's model list", CHAT_EXAMPLES.models), ...errors(401, 502, 503) },
  },
  {
    access: { need: "chat", target: "none" },
    doc: {
      operationId: "listModels",
      tag: "Chat",
      description: "The models of the OpenAI-compatible upstream (or the configured model), so OpenAI-compatible frontends can connect.",
    },
  },
);

/**
 * A failed model listing in words that fit it (nothing was stored, there is no turn to retry):
 * 502 `llm_failed` with the kind and the provider's HTTP status, never its message.
 */
function listingFailure(err: LlmError): ApiError {
  const status = err.status === undefined ? "" : ` (HTTP ${err.status}${err.code ? `, ${err.code}` : ""})`;
  const what =
    err.kind === "timeout"
      ? "did not list its models in time"
      : err.kind === "bad_output"
        ? "returned an unusable model list"
        : `could not list its models${status}`;
  return new ApiError(502, "llm_failed", `the LLM ${what}; retry shortly`, {
    details: { kind: err.kind, ...(err.status === undefined ? {} : { status: err.status }) },
    cause: err,
  });
}

/** `GET /v1/models`, so OpenAI-compatible frontends can connect and pick a model. */
export function modelRoutes() {
  const app = createRouter();
  app.openapi(route.route, async (c) => {
    // Passed through as the upstream sent it, once it is the list the contract promises.
    const listed = ModelListSchema.safeParse(
      await c
        .get("memory")
        .models()
        .catch((err: unknown) => Promise.reject(err instanceof LlmError ? listingFailure(err) : err)),
    );
    if (!listed.success)
      throw new ApiError(502, "llm_failed", "the LLM's model list is not an OpenAI model list", { details: { kind: "bad_output" } });
    return c.json(listed.data, 200);
  });
  return app;
}

/** The routes this module mounts, for the route registry. */
export const modelRouteDefs: readonly DefinedRoute[] = [route];
