/** The OpenAPI document: the route schemas, with the routes' own docs and the tables beside them where the schemas say nothing. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../context-types.ts";
import type { DefinedRoute } from "../route-def.ts";
import { routeByKey } from "../routes/registry.ts";
import { API_TAGS } from "./operations.ts";
import { PARAMETER_DOCS } from "./parameters.ts";
import { compatDocument } from "./schema-compat.ts";

export type OpenAPIDocument = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

const DESCRIPTION = `Memory for AI chat agents: a short-term window with one rolling summary, per-session working notes
and long-term facts, assembled into a context that fits a token budget.

**Authentication.** Every \`/v1\` route takes \`Authorization: Bearer <key>\`. A key maps to a tenant; no request
can reach another tenant's data. \`npm run dev\` accepts the key \`dev-key\`. A key with the read role only reads;
a browser frontend uses a short-lived token from \`POST /v1/tokens\` instead, which reaches only its own user's (and
session's) routes.

**Errors.** Every error is JSON, \`{"error": {"code", "message", "details"?}}\`, with its status. Bad input is a
4xx and stores nothing; an upstream that is down is a 503 with \`Retry-After\`. A method a path does not
declare is a 405 with \`Allow\`; a deployment with an invalid configuration answers every route 500
\`config_invalid\`, naming each problem (check \`/healthz\` after a deploy).

**Clients.** The typed TypeScript client in \`client/\` is generated from this document
([/openapi.json](/openapi.json)); \`POST /v1/chat/completions\` also takes any OpenAI SDK.`;

const DOCUMENT_CONFIG = {
  openapi: "3.1.0",
  info: { title: "Agent Memory", version: "1.0.0", description: DESCRIPTION },
  // Relative: the reference's "try it" and generated clients talk to whichever origin serves the spec.
  servers: [{ url: "/", description: "This server" }],
  tags: API_TAGS.map((tag) => ({ name: tag.name, description: tag.description })),
};

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

type Operation = NonNullable<NonNullable<OpenAPIDocument["paths"]>[string]["get"]>;

/** Parameter descriptions and the example request body, where the route gives none itself. */
function addExamples(operation: Operation, route: DefinedRoute | undefined): void {
  for (const parameter of operation.parameters ?? []) {
    if ("$ref" in parameter) continue;
    parameter.description ??= PARAMETER_DOCS[`${parameter.in}:${parameter.name}`];
  }
  const body = operation.requestBody;
  const json = body === undefined || "$ref" in body ? undefined : body.content["application/json"];
  const example = route?.example;
  if (json !== undefined && example !== undefined && json.examples === undefined) json.example ??= example;
}

/** The spec of `app`: the route schemas plus the routes' `doc` and `example` and `parameters.ts`, where the schemas say nothing themselves. */
export function openApiDocument(app: OpenAPIHono<AppEnv>): OpenAPIDocument {
  const document = app.getOpenAPI31Document(DOCUMENT_CONFIG);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const route = routeByKey(method, path);
      addExamples(operation, route);
      const row = route?.doc;
      if (row === undefined) continue;
      operation.operationId ??= row.operationId;
      operation.tags ??= [row.tag];
      operation.description ??= row.description;
    }
  }
  compatDocument(document);
  return document;
}
