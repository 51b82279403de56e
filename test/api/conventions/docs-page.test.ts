import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DOCS_ICON_PATH, DOCS_SCRIPT_PATH } from "../../../src/http/routes/docs.ts";

// Requests enter as on wrangler: static assets (public/) first, then the Worker. The pool's binding
// to the current worker takes that route; `exports.default.fetch` would call the Worker directly.
const frontDoor = (env as unknown as Record<string, Fetcher | undefined>).__VITEST_POOL_WORKERS_SELF_SERVICE;
const get = (path: string): Promise<Response> => {
  if (frontDoor === undefined) throw new Error("the workers pool no longer provides its self binding; find its new name");
  return frontDoor.fetch(new Request(`http://agent-memory.test${path}`));
};

/** Every URL the page names in an attribute, a CSS `url()` or `@import`. */
function referencedUrls(html: string): string[] {
  const attributes = [...html.matchAll(/\b(?:src|href|action|poster|srcset)\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1] as string);
  const css = [...html.matchAll(/url\(\s*["']?([^"')]*)["']?\s*\)|@import\s+["']([^"']+)["']/gi)].map((m) => (m[1] ?? m[2]) as string);
  return [...attributes, ...css];
}

describe("GET /docs", () => {
  it("is the Scalar reference and names no other origin", async () => {
    const page = await get("/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain("Scalar.createApiReference");
    // No absolute or protocol-relative URL anywhere: not in a tag, a style, or the page's configuration.
    expect(html).not.toMatch(/https?:\/\//i);
    const urls = referencedUrls(html);
    expect(urls).toContain(DOCS_SCRIPT_PATH);
    for (const url of urls) expect(url, `${url} is not a path on this origin`).toMatch(/^\/(?!\/)/);
    // The browser enforces it: the page may load and connect to this origin only.
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/(^|; )default-src 'self'(;|$)/);
    expect(csp).toMatch(/(^|; )connect-src 'self'(;|$)/);
    expect(csp).not.toMatch(/https?:|\*/);
    // What the script would otherwise fetch from elsewhere is turned off in its configuration.
    expect(html).toContain('"withDefaultFonts": false');
    expect(html).toContain('"telemetry": false');
  });

  it("serves the reference's script from this origin as JavaScript, and the spec it reads", async () => {
    const html = await (await get("/docs")).text();
    const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1] as string);
    expect(scripts).toEqual([DOCS_SCRIPT_PATH]);
    const script = await get(DOCS_SCRIPT_PATH);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    const body = await script.text();
    expect(body.slice(0, 400)).toContain("@scalar/api-reference");
    expect(body.length).toBeGreaterThan(1_000_000);

    const config = /"url":\s*"([^"]+)"/.exec(html)?.[1];
    expect(config).toBe("/openapi.json");
    const spec = await get("/openapi.json");
    expect(spec.status).toBe(200);
    expect(((await spec.json()) as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("links its icon, served from this origin (no /favicon.ico 404 in the console)", async () => {
    const html = await (await get("/docs")).text();
    const icon = /<link rel="icon"[^>]*href="([^"]+)"/.exec(html)?.[1];
    expect(icon).toBe(DOCS_ICON_PATH);
    const res = await get(DOCS_ICON_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/image\/svg\+xml/);
    expect(await res.text()).toContain("<svg");
  });

  it("serves a document the reference page validates: no empty item or value schema, no bare union of different types", async () => {
    // Scalar's check (logged as "document validation errors") fails a schema holding an empty
    // schema `{}` (zod's unknown) as `items` or `additionalProperties`, or an `anyOf` of branches of
    // different plain types with no `type` beside it (MessageInput's content, NewFact's createdAt).
    const spec = (await (await get("/openapi.json")).json()) as { components: { schemas: Record<string, unknown> } };
    const problems: string[] = [];
    const isEmpty = (value: unknown) => typeof value === "object" && value !== null && Object.keys(value).length === 0;
    const check = (schema: unknown, where: string): void => {
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return;
      const s = schema as Record<string, unknown>;
      for (const key of ["items", "additionalProperties"]) if (isEmpty(s[key])) problems.push(`${where}/${key}: empty schema`);
      const union = s.anyOf ?? s.oneOf;
      if (Array.isArray(union) && s.type === undefined) {
        const types = union.map((b) => (b as { type?: unknown }).type);
        if (types.every((t) => typeof t === "string") && new Set(types).size > 1)
          problems.push(`${where}: a union of ${types.join(", ")} without a type`);
      }
      for (const key of ["items", "additionalProperties", "not"]) check(s[key], `${where}/${key}`);
      for (const key of ["anyOf", "oneOf", "allOf"]) {
        const list = s[key];
        if (Array.isArray(list)) for (const [i, branch] of list.entries()) check(branch, `${where}/${key}/${i}`);
      }
      if (typeof s.properties === "object" && s.properties !== null) {
        for (const [name, value] of Object.entries(s.properties)) check(value, `${where}/properties/${name}`);
      }
    };
    for (const [name, schema] of Object.entries(spec.components.schemas)) check(schema, name);
    expect(problems).toEqual([]);
  });
});
