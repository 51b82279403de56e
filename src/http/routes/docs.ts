import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { ApiKeyEntry } from "../../worker/config/formats.ts";
import type { AppEnv } from "../context-types.ts";
import type { DefinedRoute } from "../route-def.ts";
import { PARAMETER_DOCS } from "./docs-examples.ts";
import { API_TAGS } from "./docs-operations.ts";
import { routeByKey } from "./registry.ts";

/**
 * Where the API reference's browser script is served from. It is not part of the Worker bundle
 * (3.5 MB): `scripts/docs-assets.ts` copies it from `@scalar/api-reference` into `public/`, which
 * wrangler serves as static assets (see `[assets]` and `[build]` in wrangler.toml).
 */
export const DOCS_SCRIPT_PATH = "/docs/scalar/api-reference.js";

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

/** The browser enforces it too: the page loads from and connects to this origin only (enough for rendering and "try it"). */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join("; ");

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

/** The spec of `app`: the route schemas plus the routes' `doc` and `example` and `docs-examples.ts`, where the schemas say nothing themselves. */
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
  return document;
}

/** Serves `/openapi.json` (built once per isolate: the routes do not change) and the Scalar reference at `/docs`. */
export function mountDocs(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  let document: OpenAPIDocument | undefined;
  app.get("/openapi.json", (c) => c.json((document ??= openApiDocument(app))));
  app.use("/docs", async (c, next) => {
    await next();
    c.header("content-security-policy", DOCS_CSP);
  });
  const reference = (devKey: string | null) =>
    Scalar({
      url: "/openapi.json",
      pageTitle: "Agent Memory API",
      // Everything the page loads comes from this Worker: the script, no web fonts, no telemetry,
      // no hosted assistant, no toolbar linking to a hosted dashboard.
      cdn: DOCS_SCRIPT_PATH,
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      showDeveloperTools: "never",
      documentDownloadType: "json",
      authentication: { preferredSecurityScheme: "bearer", ...(devKey === null ? {} : { securitySchemes: { bearer: { token: devKey } } }) },
    });
  const plain = reference(null);
  const prefilled = reference(DEV_KEY);
  // Scalar's handler is typed for any env; this one's context is the same object.
  app.get("/docs", (c, next) =>
    (devStack(c.req.url, c.get("runtime").config.apiKeys) ? prefilled : plain)(c as unknown as Parameters<typeof plain>[0], next),
  );
}

/** The key `npm run dev` accepts unless API_KEYS is set (scripts/dev-defaults.ts). */
const DEV_KEY = "dev-key";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The dev stack: served on a loopback address with the dev key configured. Only there does "try it"
 * come with the key filled in; a deploy (never on loopback, never with the public dev key) shows an
 * empty key field.
 */
function devStack(url: string, keys: readonly ApiKeyEntry[]): boolean {
  return LOOPBACK.has(new URL(url).hostname) && keys.some((k) => k.key === DEV_KEY && k.tenant === "dev");
}
