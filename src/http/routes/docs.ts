/** The API reference routes: the OpenAPI document at `/openapi.json` and the Scalar page at `/docs`. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { ApiKey, AppEnv } from "../context-types.ts";
import { openApiDocument, type OpenAPIDocument } from "../docs/openapi-document.ts";

/**
 * Where the API reference's browser script is served from. It is not part of the Worker bundle
 * (3.5 MB): `scripts/docs-assets.ts` copies it from `@scalar/api-reference` into `public/`, which
 * wrangler serves as static assets (see `[assets]` and `[build]` in wrangler.toml).
 */
export const DOCS_SCRIPT_PATH = "/docs/scalar/api-reference.js";

/** The page's icon, a static asset in `public/` (without one the browser asks for /favicon.ico: a 404 in the console). */
export const DOCS_ICON_PATH = "/favicon.svg";
const ICON_LINK = `<link rel="icon" type="image/svg+xml" href="${DOCS_ICON_PATH}" />`;

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

/** Serves `/openapi.json` (built once per isolate: the routes do not change) and the Scalar reference at `/docs`. */
export function mountDocs(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  let document: OpenAPIDocument | undefined;
  app.get("/openapi.json", (c) => c.json((document ??= openApiDocument(app))));
  app.use("/docs", async (c, next) => {
    await next();
    // Scalar's page has no icon option: the link goes into its head.
    if (c.res.status === 200 && (c.res.headers.get("content-type") ?? "").includes("text/html")) {
      const html = (await c.res.text()).replace("<head>", `<head>\n    ${ICON_LINK}`);
      const headers = new Headers(c.res.headers);
      headers.delete("content-length");
      c.res = new Response(html, { status: c.res.status, headers });
    }
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
function devStack(url: string, keys: readonly ApiKey[]): boolean {
  return LOOPBACK.has(new URL(url).hostname) && keys.some((k) => k.key === DEV_KEY && k.tenant === "dev");
}
