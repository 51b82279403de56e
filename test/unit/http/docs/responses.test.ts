import { describe, expect, it } from "vitest";
import { buildSpec } from "../../../../scripts/openapi-spec.ts";
import { PARAMETER_DOCS } from "../../../../src/http/docs/parameters.ts";
import { ROUTES, routeKey } from "../../../../src/http/routes/registry.ts";

// Every answer of /openapi.json is typed: the spec is walked operation by operation, so a route that
// answers `AnyObject` (or nothing) on success, or forgets the shared error body, fails here with its name.

const spec = buildSpec();
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}
interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, unknown>;
}
interface Response {
  content?: Record<string, Media>;
}
interface Operation {
  key: string;
  requestBody?: { content?: Record<string, Media> };
  parameters?: { in: string; name: string; description?: string }[];
  responses: Record<string, Response>;
}

const components = (spec.components?.schemas ?? {}) as Record<string, Schema>;
const operations: Operation[] = Object.entries(spec.paths ?? {}).flatMap(([path, item]) =>
  METHODS.flatMap((method) => {
    const op = (item as Record<string, unknown>)[method] as Omit<Operation, "key"> | undefined;
    return op === undefined ? [] : [{ key: `${method.toUpperCase()} ${path}`, ...op }];
  }),
);

const resolve = (schema: Schema): Schema =>
  schema.$ref ? resolve(components[schema.$ref.replace("#/components/schemas/", "")] ?? {}) : schema;

/** Why `schema` does not describe a shape, or null when it does (an object with properties, an array of such, or a union of them). */
function untyped(schema: Schema | undefined, depth = 0): string | null {
  if (schema === undefined) return "no schema";
  const s = resolve(schema);
  const members = s.anyOf ?? s.oneOf ?? s.allOf;
  if (members) return members.length === 0 ? "an empty union" : (members.map((m) => untyped(m, depth + 1)).find((p) => p !== null) ?? null);
  if (s.items) return untyped(s.items, depth + 1);
  if (s.properties) return Object.keys(s.properties).length > 0 ? null : "an object without properties";
  return depth > 0 && s.type !== undefined && s.type !== "object" ? null : "no properties, items or union";
}

const successes = operations.flatMap((op) =>
  Object.entries(op.responses)
    .filter(([status]) => /^2\d\d$/.test(status))
    .map(([status, r]) => ({ op, status, r })),
);

describe("the responses of /openapi.json", () => {
  it("finds the operations it checks", () => {
    expect(operations.length).toBeGreaterThanOrEqual(25);
    expect(successes.length).toBeGreaterThanOrEqual(operations.length);
  });

  it("gives every 2xx answer a non-empty JSON schema", () => {
    const problems = successes.flatMap(({ op, status, r }) => {
      const problem = untyped(r.content?.["application/json"]?.schema);
      return problem === null ? [] : [`${op.key} ${status}: ${problem}`];
    });
    expect(problems, "declare the answer's zod schema in src/http/schemas/*-responses.ts").toEqual([]);
  });

  it("sees an untyped answer as untyped", () => {
    expect(untyped({ type: "object", properties: {} })).not.toBeNull();
    expect(untyped({})).not.toBeNull();
    expect(untyped({ anyOf: [{ type: "object", properties: { id: { type: "string" } } }, { type: "object" }] })).not.toBeNull();
    expect(untyped({ type: "array", items: { type: "object", properties: { id: { type: "string" } } } })).toBeNull();
  });

  it("shows an example of every 2xx JSON answer", () => {
    const missing = successes.filter(({ r }) => {
      const media = r.content?.["application/json"];
      return media?.example === undefined && media?.examples === undefined;
    });
    expect(missing.map(({ op, status }) => `${op.key} ${status}`)).toEqual([]);
  });

  it("shows an example of every JSON request body, and describes every parameter", () => {
    const noExample = operations.filter((op) => op.requestBody && op.requestBody.content?.["application/json"]?.example === undefined);
    expect(
      noExample.map((op) => op.key),
      "give the route an example in defineRoute",
    ).toEqual([]);
    const undescribed = operations.flatMap((op) =>
      (op.parameters ?? []).filter((p) => !p.description).map((p) => `${op.key} ${p.in}:${p.name}`),
    );
    expect(undescribed, "add a row to PARAMETER_DOCS in src/http/docs/parameters.ts").toEqual([]);
  });

  it("has no example or parameter row that matches nothing", () => {
    const keys = new Set(operations.filter((op) => op.requestBody).map((op) => op.key));
    expect(ROUTES.filter((r) => r.example !== undefined && !keys.has(routeKey(r))).map(routeKey)).toEqual([]);
    const parameters = new Set(operations.flatMap((op) => (op.parameters ?? []).map((p) => `${p.in}:${p.name}`)));
    expect(Object.keys(PARAMETER_DOCS).filter((key) => !parameters.has(key))).toEqual([]);
  });

  it("answers every error with the one shared Error body", () => {
    // The health probe's 503 is its report, as on 200: a probe reads which store is down.
    const report = new Set(["GET /healthz 503"]);
    const wrong = operations.flatMap((op) =>
      Object.entries(op.responses)
        .filter(([status]) => /^[45]\d\d$/.test(status) && !report.has(`${op.key} ${status}`))
        .filter(([, r]) => r.content?.["application/json"]?.schema?.$ref !== "#/components/schemas/Error")
        .map(([status]) => `${op.key} ${status}`),
    );
    expect(wrong).toEqual([]);
  });

  it("lists 401 on every /v1 operation, and 413 and 415 on every one that takes a body", () => {
    const missing = operations.flatMap((op) => {
      const needs = op.key.includes(" /v1/") ? ["401", ...(op.requestBody ? ["413", "415"] : [])] : [];
      return needs.filter((status) => op.responses[status] === undefined).map((status) => `${op.key} ${status}`);
    });
    expect(missing).toEqual([]);
  });
});
