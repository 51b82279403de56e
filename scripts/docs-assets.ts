/** @module Copies the API reference's browser script from node_modules into `public/` so `/docs` works offline. */
import { copyFileSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DOCS_SCRIPT_PATH } from "../src/http/routes/docs.ts";

/**
 * Copies the API reference's browser bundle (`@scalar/api-reference`'s standalone script) from
 * node_modules into `public/`, the folder wrangler serves as static assets, so `/docs` loads it from
 * the Worker's own origin and works offline. wrangler runs this as its `[build]` command before
 * `wrangler dev` and `wrangler deploy`; the test setup runs it before the workers pool starts. The
 * copy is git-ignored: it always matches the installed package.
 */

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const PUBLIC_DIR = join(ROOT, "public");

export interface CopiedAsset {
  /** Where the file was written. */
  file: string;
  bytes: number;
  /** Version of `@scalar/api-reference` it came from. */
  version: string;
  /** False when the file already held these bytes (it is then left untouched). */
  written: boolean;
}

function sameBytes(a: string, b: string): boolean {
  try {
    return statSync(a).size === statSync(b).size && readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

export function copyDocsAssets(publicDir: string = PUBLIC_DIR): CopiedAsset {
  const require = createRequire(import.meta.url);
  const source = require.resolve("@scalar/api-reference/browser/standalone.js");
  const manifest = JSON.parse(readFileSync(join(dirname(source), "../../package.json"), "utf8")) as { version: string };
  const file = join(publicDir, ...DOCS_SCRIPT_PATH.split("/").filter((part) => part !== ""));
  mkdirSync(dirname(file), { recursive: true });
  // Left alone when current: wrangler dev watches public/ and reloads on every write.
  const written = !sameBytes(source, file);
  if (written) copyFileSync(source, file);
  return { file, bytes: statSync(file).size, version: manifest.version, written };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const copied = copyDocsAssets();
  console.log(`docs assets: @scalar/api-reference ${copied.version} -> ${DOCS_SCRIPT_PATH} (${Math.round(copied.bytes / 1024)} KiB)`);
}
