import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePorts, runScript, shellEnv, stopLeftovers, waitForOk, type ScriptRun } from "./dev-process.ts";
import { descendants, waitUntilGone } from "./processes.ts";

// `npm run dev` as a person runs it, on ports and a data folder of its own, so it runs next to
// another dev stack (or another run of this suite) on the same machine.

const AUTH = { authorization: "Bearer dev-key", "content-type": "application/json" };
const STARTS = 240_000;

let dataRoot: string;
beforeAll(async () => {
  dataRoot = await mkdtemp(join(tmpdir(), "agent-memory-dev-"));
});
afterEach(stopLeftovers);
afterAll(async () => {
  await rm(dataRoot, { recursive: true, force: true });
});

/** Starts the stack and waits for /healthz; the test fails with the stack's output if it never answers. */
async function start(args: string[], env: Record<string, string>, port: number): Promise<ScriptRun> {
  const run = runScript("scripts/dev.ts", args, shellEnv(env));
  const ready = await waitForOk(`http://127.0.0.1:${port}/healthz`, run);
  if (!ready) {
    run.child.kill("SIGKILL");
    expect.fail(`npm run dev did not serve /healthz:\n${run.output()}`);
  }
  return run;
}

/** Sends `signal` and waits for the script and everything it started to end. */
async function stop(run: ScriptRun, signal: NodeJS.Signals): Promise<{ exit: number | string; left: number[] }> {
  const pid = run.child.pid as number;
  const tree = descendants(pid);
  run.child.kill(signal);
  const exit = await run.exited;
  return { exit, left: await waitUntilGone([pid, ...tree], 30_000) };
}

describe("npm run dev", () => {
  it("moves every port by its variable, serves the API, and stops everything on SIGTERM", { timeout: STARTS }, async () => {
    const [port, redisPort, vectorPort, inspectorPort] = (await freePorts(4)) as [number, number, number, number];
    const dataDir = join(dataRoot, "env");
    const run = await start(
      [],
      {
        PORT: String(port),
        UPSTASH_LOCAL_REDIS_PORT: String(redisPort),
        UPSTASH_LOCAL_VECTOR_PORT: String(vectorPort),
        INSPECTOR_PORT: String(inspectorPort),
        DEV_DATA_DIR: dataDir,
      },
      port,
    );
    const base = `http://127.0.0.1:${port}`;

    const health = await fetch(`${base}/healthz`);
    expect(await health.json()).toMatchObject({ ok: true, redis: "ok", vector: "ok" });
    expect((await fetch(`${base}/docs`)).status).toBe(200);
    const spec = (await (await fetch(`${base}/openapi.json`)).json()) as { openapi?: string };
    expect(spec.openapi).toMatch(/^3\./);
    // The emulators answer on the moved ports, and wrangler's inspector listens on its moved port.
    expect((await fetch(`http://127.0.0.1:${redisPort}/ping`, { headers: { authorization: "Bearer local-dev-token" } })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${vectorPort}/info`, { headers: { authorization: "Bearer local-dev-token" } })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${inspectorPort}/json/version`)).status).toBe(200);

    const { exit, left } = await stop(run, "SIGTERM");
    expect(exit, run.output()).toBe(0);
    expect(left, "processes of the stack still running after SIGTERM").toEqual([]);
    // An offline start is quiet: no `Request.cf` fetch, no stack trace, one build, current types.
    expect(run.output()).not.toContain("Request.cf");
    expect(run.output()).not.toContain("restarting build");
    expect(run.output()).not.toContain("types might be out of date");
    expect(run.output().match(/Ready on http/g), run.output()).toHaveLength(1);
    expect(run.output()).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  });

  it("takes the ports as flags and keeps its data across a restart (Ctrl-C, then SIGTERM)", { timeout: 2 * STARTS }, async () => {
    const ports = (await freePorts(4)) as [number, number, number, number];
    const flags = ["--port", "--redis-port", "--vector-port", "--inspector-port"].flatMap((flag, i) => [flag, String(ports[i])]);
    const args = [...flags, "--data-dir", join(dataRoot, "flags")];
    const base = `http://127.0.0.1:${ports[0]}`;

    const first = await start(args, {}, ports[0]);
    const added = await fetch(`${base}/v1/sessions/kept/messages`, {
      method: "POST",
      headers: AUTH,
      body: JSON.stringify({ messages: [{ id: "m1", role: "user", content: "remember the blue door" }] }),
    });
    expect(added.status, await added.text()).toBe(201);
    // Wrangler's own state sits in the data folder too, so two stacks never share its SQLite files.
    expect(existsSync(join(dataRoot, "flags", "wrangler", "v3"))).toBe(true);
    const firstStop = await stop(first, "SIGINT");
    expect(firstStop.left).toEqual([]);

    const second = await start(args, {}, ports[0]);
    const session = (await (await fetch(`${base}/v1/sessions/kept`, { headers: AUTH })).json()) as {
      exists?: boolean;
      stats?: { messages?: number };
    };
    expect(session).toMatchObject({ exists: true, stats: { messages: 1 } });
    const secondStop = await stop(second, "SIGTERM");
    expect(secondStop.exit).toBe(0);
    expect(secondStop.left).toEqual([]);
  });
});
