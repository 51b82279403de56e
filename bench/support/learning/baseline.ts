/** @module The learning bench's Workers: one serving a tree in local workerd, and a git ref's tree exported to a temporary directory. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { unstable_startWorker } from "wrangler";

/** A Worker serving this tree, or the tree of `ref` exported to a temporary directory (sharing node_modules). */
export async function startWorker(root: string, vars: Record<string, string>) {
  const worker = await unstable_startWorker({
    config: join(root, "wrangler.toml"),
    entrypoint: join(root, "src/index.ts"),
    bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: "plain_text" as const, value }])),
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, persist: false, watch: false, logLevel: "error" },
  });
  await worker.ready;
  return { worker, base: await worker.url };
}

export function exportRef(ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), "learning-baseline-"));
  execFileSync("sh", [
    "-c",
    `git archive ${JSON.stringify(ref)} src scripts wrangler.toml package.json tsconfig.json | tar -x -C ${JSON.stringify(dir)}`,
  ]);
  symlinkSync(resolve("node_modules"), join(dir, "node_modules"));
  if (existsSync("public")) symlinkSync(resolve("public"), join(dir, "public"));
  // Refs whose Worker bundles binary rank tables need them written, as the build step does.
  if (existsSync(join(dir, "scripts/rank-binaries.ts")))
    execFileSync(process.execPath, ["--import", "tsx", "scripts/rank-binaries.ts"], { cwd: dir });
  return dir;
}
