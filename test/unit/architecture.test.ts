import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The dependency rules of src/: http -> memory <- stores / llm, wired by worker/. The domain imports
 * no adapter and no vendor SDK; http imports no adapter and nothing of worker/ (the runtime it needs
 * is its own interface); adapters and worker/ import nothing from http; no import goes round in a
 * loop; a capability folder with an `index.ts` is entered through it from outside the domain.
 */
const SRC = new URL("../../src/", import.meta.url).pathname;

interface Import {
  file: string;
  target: string;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** Every import and re-export of a file, static or dynamic, type imports included; relative ones as paths under src/. */
function imports(file: string): Import[] {
  const source = readFileSync(file, "utf8");
  const specs = [
    ...[...source.matchAll(/^\s*(import|export)\s+(type\s+)?[^"';]*?\s+from\s+["']([^"']+)["']/gm)].map((m) => m[3]!),
    ...[...source.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!),
  ];
  return specs.map((spec) => ({ file: relative(SRC, file), target: spec.startsWith(".") ? relative(SRC, join(file, "..", spec)) : spec }));
}

const all = files(SRC).flatMap(imports);
const layer = (path: string): string => path.split("/")[0] ?? "";
const VENDORS = /^(hono|@hono\/|@upstash\/|openai|js-tiktoken|zod)/;

describe("architecture", () => {
  it("finds the imports it checks", () => {
    expect(all.length).toBeGreaterThan(100);
  });

  it("the domain imports nothing from http, stores, llm, worker or a vendor SDK", () => {
    const bad = all.filter(
      (i) => layer(i.file) === "memory" && (["http", "stores", "llm", "worker"].includes(layer(i.target)) || VENDORS.test(i.target)),
    );
    expect(bad).toEqual([]);
  });

  it("http imports nothing from stores, llm or worker", () => {
    const bad = all.filter((i) => layer(i.file) === "http" && ["stores", "llm", "worker"].includes(layer(i.target)));
    expect(bad).toEqual([]);
  });

  it("adapters and the composition root import nothing from http", () => {
    const bad = all.filter((i) => ["stores", "llm", "worker"].includes(layer(i.file)) && layer(i.target) === "http");
    expect(bad).toEqual([]);
  });

  it("stores and llm do not import each other", () => {
    const bad = all.filter(
      (i) => (layer(i.file) === "stores" && layer(i.target) === "llm") || (layer(i.file) === "llm" && layer(i.target) === "stores"),
    );
    expect(bad).toEqual([]);
  });

  it("has no import cycle anywhere in src, type imports included", () => {
    const next = new Map<string, string[]>();
    for (const i of all.filter((i) => i.target.endsWith(".ts"))) next.set(i.file, [...(next.get(i.file) ?? []), i.target]);
    const cycles: string[][] = [];
    const state = new Map<string, "open" | "done">();
    const walk = (file: string, path: string[]) => {
      state.set(file, "open");
      for (const target of next.get(file) ?? []) {
        if (state.get(target) === "open") cycles.push([...path.slice(path.indexOf(target)), target]);
        else if (!state.has(target)) walk(target, [...path, target]);
      }
      state.set(file, "done");
    };
    for (const file of next.keys()) if (!state.has(file)) walk(file, [file]);
    expect(cycles).toEqual([]);
  });

  it("every capability folder of the domain has an index.ts", () => {
    const folders = readdirSync(join(SRC, "memory")).filter((name) => statSync(join(SRC, "memory", name)).isDirectory());
    expect(folders.length).toBeGreaterThan(5);
    expect(folders.filter((name) => !existsSync(join(SRC, "memory", name, "index.ts")))).toEqual([]);
  });

  it("code outside the domain enters a capability folder through its index.ts", () => {
    const isCapability = (dir: string) => layer(dir) === "memory" && dir !== "memory" && existsSync(join(SRC, dir, "index.ts"));
    const bad = all.filter((i) => layer(i.file) !== "memory" && isCapability(dirname(i.target)) && !i.target.endsWith("/index.ts"));
    expect(bad).toEqual([]);
  });
});
