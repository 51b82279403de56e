// Builds the published package: ESM and .d.ts from src/ into dist/ (`npm run build`, run by `npm pack`).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
// tsc rewrites `./x.ts` to `./x.js` in the JavaScript it emits but not in declarations; a consumer's
// TypeScript (moduleResolution node16 or bundler) needs `.js` there too.
for (const name of readdirSync(dist)) {
  if (!name.endsWith(".d.ts")) continue;
  const path = join(dist, name);
  const source = readFileSync(path, "utf8");
  writeFileSync(
    path,
    source.replace(/(from\s+["']\.{1,2}\/[^"']+)\.ts(["'])/g, "$1.js$2").replace(/(import\(["']\.{1,2}\/[^"']+)\.ts(["']\))/g, "$1.js$2"),
  );
}
console.log(`client: built ${readdirSync(dist).length} files into dist/`);
