/**
 * @module The real Worker in local workerd for the benchmarks, served the way a deployed Worker is:
 * the deploy bundle on a socket of its own.
 *
 * `wrangler dev` (and its `startWorker` API) puts three things in front of the Worker that a
 * deployed Worker does not have: its dev proxy (a second workerd), Miniflare's entry worker (161 KB
 * of JavaScript run on every request) and, with `[assets]`, the asset router; it also adds its dev
 * middleware to the bundle, routes every outbound fetch through one more worker, and pipes every
 * log line into this process. Measured on this machine, a 404 from a one-line Worker costs 1.4 ms
 * of workerd CPU and 3.0 ms of wall time that way, against 0.16 ms and 0.8 ms on a direct socket.
 *
 * So the Worker is built as `wrangler deploy --dry-run` builds it (the bundle that would be
 * uploaded), and run by Miniflare with the configuration `wrangler.toml` gives it (compatibility
 * date and flags, `[vars]`, the R2 binding, module rules), minus the static assets (their requests
 * never reach the Worker), on a direct socket, with outbound fetches going straight out. Its info
 * logs (stdout) are dropped instead of printed by this process, which shares the CPU with the
 * client and the emulators; its warnings and errors (stderr) are passed through.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { Miniflare, type WorkerOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

/** How the benchmarks start and stop the Worker. */
export interface BenchWorker {
  /** The Worker's own socket. */
  base: URL;
  dispose(): Promise<void>;
}

/** Options of {@link startBenchWorker} besides the bindings. */
export interface BenchWorkerOptions {
  /** Build-time replacements, as `[define]` in wrangler.toml (e.g. the bundled rank table). */
  define?: Record<string, string>;
  /**
   * The module to bundle instead of `main` (a profiling entry wrapping the Worker).
   * @default "src/index.ts"
   */
  entrypoint?: string;
  /** Opens V8's inspector on this port (`/json` lists the Worker's target). */
  inspectorPort?: number;
}

const run = promisify(execFile);

/**
 * Bundles `entrypoint` as `wrangler deploy` would upload it, into a fresh directory; returns the
 * directory and the script's path (named after the entry module, beside the modules it imports).
 */
async function deployBundle(entrypoint: string, define: Record<string, string>): Promise<{ outdir: string; script: string }> {
  const outdir = mkdtempSync(join(tmpdir(), "am-bench-bundle-"));
  const defines = Object.entries(define).flatMap(([key, value]) => ["--define", `${key}:${value}`]);
  await run("npx", ["wrangler", "deploy", entrypoint, "--dry-run", "--outdir", outdir, ...defines], { maxBuffer: 16 * 1024 * 1024 });
  const script = readdirSync(outdir).find((name) => name.endsWith(".js"));
  if (!script) throw new Error(`wrangler deploy --dry-run wrote no script for ${entrypoint}`);
  return { outdir, script: join(outdir, script) };
}

/**
 * Starts the Worker with `vars` as plain-text bindings over wrangler.toml's `[vars]` (upstash-local's
 * variables, keys, limits), on a free port, without persistence.
 */
export async function startBenchWorker(vars: Record<string, string>, options: BenchWorkerOptions = {}): Promise<BenchWorker> {
  const entrypoint = options.entrypoint ?? "src/index.ts";
  const { outdir, script } = await deployBundle(entrypoint, options.define ?? {});
  const { workerOptions } = unstable_getMiniflareWorkerOptions("wrangler.toml");
  const { assets: _assets, ...configured } = workerOptions as WorkerOptions & { assets?: unknown };
  const mf = new Miniflare({
    ...(configured as WorkerOptions),
    name: "agent-memory",
    modules: true,
    modulesRoot: outdir,
    scriptPath: script,
    bindings: { ...(configured.bindings ?? {}), ...vars },
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
    stripCfConnectingIp: false,
    ...(options.inspectorPort === undefined ? {} : { inspectorPort: options.inspectorPort }),
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      stdout.resume();
      stderr.pipe(process.stderr);
    },
  });
  await mf.ready;
  const base = await mf.unsafeGetDirectURL("agent-memory");
  return {
    base,
    dispose: async () => {
      await mf.dispose();
      rmSync(outdir, { recursive: true, force: true });
    },
  };
}
