import { describe, expect, it } from "vitest";
import { ROUTES, routeKey } from "../../../../src/http/routes/registry.ts";
import { buildSpec } from "../../../../scripts/openapi-spec.ts";

// The document-level contract of /openapi.json. Every operation has an id (the typed client's name
// for it), a tag the document describes, and a description: a route added without them fails here.

const spec = buildSpec();
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

interface Operation {
  key: string;
  operationId?: string | undefined;
  tags?: string[] | undefined;
  description?: string | undefined;
  summary?: string | undefined;
}

const operations: Operation[] = Object.entries(spec.paths ?? {}).flatMap(([path, item]) =>
  METHODS.flatMap((method) => {
    const op = item[method];
    return op === undefined ? [] : [{ key: `${method.toUpperCase()} ${path}`, ...op }];
  }),
);

describe("the OpenAPI document", () => {
  it("finds the operations it checks", () => {
    expect(operations.length).toBeGreaterThanOrEqual(24);
  });

  it("names its servers, describes itself and every tag", () => {
    expect(spec.servers?.length).toBeGreaterThan(0);
    expect(spec.info.description?.length).toBeGreaterThan(100);
    for (const tag of spec.tags ?? []) expect(tag.description, tag.name).toBeTruthy();
  });

  it("gives every operation an operationId, a described tag, a summary and a description", () => {
    const declared = new Set((spec.tags ?? []).map((t) => t.name));
    const missing = operations.flatMap((op) => {
      const problems = [
        op.operationId ? null : "operationId",
        op.tags?.length ? null : "tag",
        (op.tags ?? []).every((t) => declared.has(t)) ? null : `a tag the document does not declare (${op.tags?.join(", ")})`,
        op.summary ? null : "summary",
        op.description ? null : "description",
      ].filter((p) => p !== null);
      return problems.length > 0 ? [`${op.key}: no ${problems.join(", no ")}`] : [];
    });
    expect(missing, "give the route its doc in defineRoute (or set them in createRoute)").toEqual([]);
  });

  it("uses each operationId once, as a camelCase identifier", () => {
    const ids = operations.map((op) => op.operationId ?? "");
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
  });

  it("documents every defined route, and only those", () => {
    const keys = new Set(operations.map((op) => op.key));
    expect(ROUTES.map(routeKey).filter((key) => !keys.has(key))).toEqual([]);
    expect(operations.map((op) => op.key).filter((key) => !ROUTES.some((r) => routeKey(r) === key))).toEqual([]);
  });
});
