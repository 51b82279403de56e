import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRespBackend } from "../../tools/upstash-local/redis/resp/backend.ts";

/** The Redis a test run uses behind upstash-local, next to the embedded engine. */
export interface TestRedis {
  /** `redis://...`, or undefined when there is none and only the embedded engine is tested. */
  url: string | undefined;
  /** One line saying which Redis and why. */
  summary: string;
  close(): Promise<void>;
}

/** Variable that overrides the choice: `auto` (default), `spawn` (own redis-server) or `off` (none). */
export const TEST_REDIS_VARIABLE = "AGENT_MEMORY_TEST_REDIS";
const nothingToClose = async (): Promise<void> => {};

/**
 * REDIS_URL when set (and it must answer); else a `redis-server` of our own on a free port when the
 * binary exists; else none. A Redis that merely answers on the standard port is never used: it may be
 * a developer's own, and the suites write thousands of keys.
 */
export async function acquireTestRedis(env: NodeJS.ProcessEnv = process.env): Promise<TestRedis> {
  const mode = env[TEST_REDIS_VARIABLE] || "auto";
  if (mode === "off") return { url: undefined, summary: `none, embedded engine only (${TEST_REDIS_VARIABLE}=off)`, close: nothingToClose };
  if (mode !== "auto" && mode !== "spawn") throw new Error(`${TEST_REDIS_VARIABLE} must be auto, spawn or off, got "${mode}"`);
  if (mode === "auto" && env.REDIS_URL) {
    const problem = await pingProblem(env.REDIS_URL);
    // A Redis asked for by name that does not answer is a broken setup, not a reason to test less.
    if (problem !== null) throw new Error(`REDIS_URL=${env.REDIS_URL} does not answer (${problem}); start it or unset REDIS_URL`);
    return { url: env.REDIS_URL, summary: `REDIS_URL (${env.REDIS_URL})`, close: nothingToClose };
  }
  const hasBinary = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).error === undefined;
  if (hasBinary) return startRedisServer(mode === "auto" ? "REDIS_URL unset" : `${TEST_REDIS_VARIABLE}=spawn`);
  if (mode === "spawn") throw new Error(`${TEST_REDIS_VARIABLE}=spawn needs redis-server on PATH`);
  return {
    url: undefined,
    summary: "none, embedded engine only (REDIS_URL unset, no redis-server on PATH)",
    close: nothingToClose,
  };
}

/** Why `url` does not answer PING, or null when it does. */
async function pingProblem(url: string): Promise<string | null> {
  try {
    const backend = await createRespBackend({ url, poolSize: 1, connectTimeoutMs: 1000 });
    try {
      await backend.exec(["PING"]);
    } finally {
      await backend.close();
    }
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A throwaway redis-server: loopback only, nothing saved, its folder removed on close. */
async function startRedisServer(reason: string): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "agent-memory-redis-"));
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const child = spawn("redis-server", args, { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const killOnExit = (): void => void child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const url = `redis://127.0.0.1:${port}`;
  const close = async (): Promise<void> => {
    process.off("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  // Readiness is polled, not timed: a loaded machine only makes it take longer.
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) break;
    if ((await pingProblem(url)) === null) return { url, summary: `own redis-server on 127.0.0.1:${port} (${reason})`, close };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await close();
  throw new Error(`redis-server on 127.0.0.1:${port} did not answer (exit code ${child.exitCode})`);
}
