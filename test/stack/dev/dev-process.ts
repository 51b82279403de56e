import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo, type Server } from "node:net";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** A script of the repo run as `npm run` runs it (`node --import tsx`), its output kept for messages. */
export interface ScriptRun {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * The environment of a person's shell: none of what the test runner or CI set that would change the
 * dev stack (NODE_ENV=test turns Miniflare's defaults to test mode; a REDIS_URL or UPSTASH_* would
 * point it elsewhere), plus `extra`.
 */
export function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VITEST|NODE_ENV$|REDIS_URL$|UPSTASH_|API_KEYS$|PORT$|INSPECTOR_PORT$|DEV_DATA_DIR$|TEST$)/.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

const running = new Set<ScriptRun>();

export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): ScriptRun {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let all = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => (all += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => {
    all += chunk.toString("utf8");
    err += chunk.toString("utf8");
  });
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  const run: ScriptRun = { child, output: () => all, stderr: () => err, exited };
  running.add(run);
  void exited.then(() => running.delete(run));
  return run;
}

/** Ends what a failed test left running: SIGTERM first, so the script can stop what it started. */
export async function stopLeftovers(): Promise<void> {
  await Promise.all(
    [...running].map(async (run) => {
      run.child.kill("SIGTERM");
      const forced = setTimeout(() => run.child.kill("SIGKILL"), 20_000);
      await run.exited;
      clearTimeout(forced);
    }),
  );
}

/** `count` distinct free ports on 127.0.0.1 (held together while picked, so none repeats). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => listen(0)));
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** A listener that holds `port` on 127.0.0.1 (0 for a free one) until closed. */
export function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject).listen(port, "127.0.0.1", () => resolve(server));
  });
}

/**
 * Polls `url` until it answers 200 or the process ends or the deadline passes. Generous on purpose:
 * the first start bundles the Worker and boots workerd, which takes long on a loaded machine.
 */
export async function waitForOk(url: string, run: ScriptRun, deadlineMs = 180_000): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  let ended = false;
  void run.exited.then(() => (ended = true));
  while (!ended && Date.now() < until) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (res.status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** A running `npm run dev` on free ports: the Worker's base URL and the browser example's port. */
export interface DevStack {
  run: ScriptRun;
  base: string;
  examplePort: number;
}

/** Starts `npm run dev` on free ports with its data under `dataDir` and waits for /healthz; `env` adds variables. */
export async function startDevStack(dataDir: string, env: Record<string, string> = {}): Promise<DevStack> {
  const [port, redisPort, vectorPort, inspectorPort, examplePort] = (await freePorts(5)) as [number, number, number, number, number];
  const base = `http://127.0.0.1:${port}`;
  const run = runScript(
    "scripts/dev.ts",
    [],
    shellEnv({
      PORT: String(port),
      UPSTASH_LOCAL_REDIS_PORT: String(redisPort),
      UPSTASH_LOCAL_VECTOR_PORT: String(vectorPort),
      INSPECTOR_PORT: String(inspectorPort),
      EXAMPLE_PORT: String(examplePort),
      DEV_DATA_DIR: dataDir,
      ...env,
    }),
  );
  if (!(await waitForOk(`${base}/healthz`, run))) throw new Error(`npm run dev did not serve /healthz:\n${run.output()}`);
  return { run, base, examplePort };
}
