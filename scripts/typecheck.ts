/**
 * @module The typecheck: the Worker (with the tests that run in it), the Node side (tools, scripts,
 * benches, Node tests) and the client package, each `tsc` run at the same time. They share nothing
 * but the files they read, and each takes one core, so on two or more cores the typecheck takes as
 * long as its slowest project instead of the sum. Each project's output is printed whole when it
 * ends, under its name; the exit code is the first failure's.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

const PROJECTS = ["tsconfig.json", "tsconfig.node.json", "client/tsconfig.json"] as const;
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

function check(project: string): Promise<{ project: string; code: number; output: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, "-p", project], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ project, code: code ?? 1, output, ms: performance.now() - started }));
  });
}

const results = await Promise.all(PROJECTS.map(check));
for (const { project, code, output, ms } of results) {
  console.log(`tsc -p ${project}: ${code === 0 ? "ok" : "failed"} (${(ms / 1000).toFixed(1)} s)`);
  if (output.trim() !== "") console.log(output.trimEnd());
}
process.exitCode = results.find((r) => r.code !== 0)?.code ?? 0;
