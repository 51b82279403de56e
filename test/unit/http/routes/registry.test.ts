import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { DefinedRoute } from "../../../../src/http/route-def.ts";
import { ROUTES, routeKey } from "../../../../src/http/routes/registry.ts";

// The registry is read by the access guard, the API reference and the rate limiter: every route
// module's definitions must be in it, and a route admits in parallel exactly when it calls `admit`.

const DIR = new URL("../../../../src/http/routes/", import.meta.url);

const modules = await Promise.all(
  readdirSync(DIR)
    .filter((name) => name.endsWith(".ts"))
    .map(async (name) => {
      const exports = (await import(new URL(name, DIR).href)) as Record<string, unknown>;
      const defs = Object.entries(exports).flatMap(([key, value]) => (key.endsWith("RouteDefs") ? (value as readonly DefinedRoute[]) : []));
      return { name, defs, admits: /\badmit\(c\)/.test(readFileSync(new URL(name, DIR), "utf8")) };
    }),
);

describe("the route registry", () => {
  it("holds every route a module defines, once", () => {
    const defined = modules.flatMap((m) => m.defs.map(routeKey));
    expect(defined.length).toBeGreaterThanOrEqual(30);
    expect([...ROUTES.map(routeKey)].sort()).toEqual([...defined].sort());
    expect(new Set(defined).size).toBe(defined.length);
  });

  it("admits in parallel exactly the routes whose handler calls admit", () => {
    const wrong = modules.flatMap((m) =>
      m.defs.filter((d) => (d.parallelAdmit === true) !== m.admits).map((d) => `${m.name}: ${routeKey(d)}`),
    );
    expect(wrong).toEqual([]);
    expect(
      modules
        .filter((m) => m.admits)
        .map((m) => m.name)
        .sort(),
    ).toEqual(["chat.ts", "completions.ts"]);
  });
});
