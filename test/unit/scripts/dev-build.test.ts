import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { tableKeys, typesProblem, withoutBuildTable } from "../../../scripts/dev-build.ts";

const root = new URL("../../../", import.meta.url);
const TOML = readFileSync(new URL("wrangler.toml", root), "utf8");
const TYPES = readFileSync(new URL("worker-configuration.d.ts", root), "utf8");
const WORKERD = (createRequire(import.meta.url)("workerd/package.json") as { version: string }).version;

describe("npm run dev's wrangler config", () => {
  it("is wrangler.toml without the [build] table, every other table kept as written", () => {
    const dev = withoutBuildTable(TOML);
    expect(TOML).toMatch(/^\[build\]$/m);
    expect(dev).not.toMatch(/^\[build\]$/m);
    expect(dev).not.toContain("scripts/build-assets.ts");
    for (const table of ["[define]", "[triggers]", "[vars]", "[[r2_buckets]]", "[assets]"]) expect(dev).toContain(table);
    expect(tableKeys(dev, "vars")).toEqual(tableKeys(TOML, "vars"));
    expect(dev).toContain('main = "src/index.ts"');
  });

  it("drops only [build], wherever it sits", () => {
    const toml = 'name = "w"\n[build]\ncommand = "make"\nwatch_dir = "src"\n[vars]\nA = "1"\n';
    expect(withoutBuildTable(toml)).toMatch(/name = "w"\n\[vars\]\nA = "1"\n$/);
  });
});

describe("worker-configuration.d.ts", () => {
  it("matches wrangler.toml: every [vars] name, this workerd and the compatibility date (npm run types)", () => {
    expect(tableKeys(TOML, "vars").length).toBeGreaterThan(5);
    expect(typesProblem(TOML, TYPES, WORKERD)).toBeNull();
  });

  it("is stale when a variable is added or removed, or the runtime moves", () => {
    const added = TOML.replace("[vars]\n", '[vars]\nNEW_SETTING = "x"\n');
    expect(typesProblem(added, TYPES, WORKERD)).toMatch(/\+NEW_SETTING/);
    const removed = TOML.replace(/^OPENAI_MODEL = .*$/m, "");
    expect(typesProblem(removed, TYPES, WORKERD)).toMatch(/-OPENAI_MODEL/);
    expect(typesProblem(TOML, TYPES, "1.20990101.0")).toMatch(/runtime types/);
    expect(typesProblem(TOML.replace(/compatibility_date = "[^"]+"/, 'compatibility_date = "2099-01-01"'), TYPES, WORKERD)).toMatch(
      /runtime types/,
    );
    expect(typesProblem(TOML, "", WORKERD)).not.toBeNull();
  });
});
