import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AddressInfo, Server } from "node:net";
import { freePorts, listen, runScript, shellEnv, stopLeftovers } from "./dev-process.ts";

// A port someone else holds is the most common way a dev start fails; the answer is one line that
// names the setting to change, before anything has started.

let holder: Server;
let busy: number;
// Never created: every run here must stop before it writes anything.
const unusedDir = join(tmpdir(), `agent-memory-dev-unused-${process.pid}`);
beforeAll(async () => {
  holder = await listen(0);
  busy = (holder.address() as AddressInfo).port;
});
afterEach(stopLeftovers);
afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  expect(existsSync(unusedDir)).toBe(false);
});

const SETTINGS = [
  { variable: "PORT", flag: "--port" },
  { variable: "UPSTASH_LOCAL_REDIS_PORT", flag: "--redis-port" },
  { variable: "UPSTASH_LOCAL_VECTOR_PORT", flag: "--vector-port" },
  { variable: "INSPECTOR_PORT", flag: "--inspector-port" },
];

/** Free ports for every setting but `taken`, which gets the busy port. */
async function portsWithBusy(taken: string): Promise<Record<string, string>> {
  const free = await freePorts(SETTINGS.length);
  return Object.fromEntries(SETTINGS.map((s, i) => [s.variable, String(s.variable === taken ? busy : free[i])]));
}

function lines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "");
}

describe("a busy port", () => {
  it.each(SETTINGS)("set by $variable stops npm run dev with one line naming $variable and $flag", async ({ variable, flag }) => {
    const run = runScript("scripts/dev.ts", [], shellEnv({ ...(await portsWithBusy(variable)), DEV_DATA_DIR: unusedDir }));
    expect(await run.exited).toBe(1);
    const said = lines(run.output());
    expect(said, run.output()).toHaveLength(1);
    expect(said[0]).toContain(`port ${busy} `);
    expect(said[0]).toContain(variable);
    expect(said[0]).toContain(flag);
  });

  it("given as a flag is reported the same way", async () => {
    const env = await portsWithBusy("");
    const run = runScript("scripts/dev.ts", ["--vector-port", String(busy)], shellEnv({ ...env, DEV_DATA_DIR: unusedDir }));
    expect(await run.exited).toBe(1);
    expect(lines(run.output())).toEqual([expect.stringMatching(/port \d+ .*UPSTASH_LOCAL_VECTOR_PORT.*--vector-port/)]);
  });

  it("stops npm run upstash-local with one line naming the variable", async () => {
    const [redisPort] = (await freePorts(1)) as [number];
    const env = shellEnv({ UPSTASH_LOCAL_REDIS_PORT: String(redisPort), UPSTASH_LOCAL_VECTOR_PORT: String(busy) });
    const run = runScript("tools/upstash-local/main.ts", ["--memory"], env);
    expect(await run.exited).toBe(1);
    expect(lines(run.output()), run.output()).toEqual([
      `upstash-local: port ${busy} is already in use; set UPSTASH_LOCAL_VECTOR_PORT or pass --vector-port to pick another`,
    ]);
  });
});

describe("a bad setting", () => {
  it("is one line naming it, as is an unknown flag", async () => {
    const bad = runScript("scripts/dev.ts", [], shellEnv({ UPSTASH_LOCAL_REDIS_PORT: "eighty" }));
    expect(await bad.exited).toBe(1);
    expect(lines(bad.output())).toEqual(['npm run dev: UPSTASH_LOCAL_REDIS_PORT must be a port number from 1 to 65535, got "eighty"']);
    const unknown = runScript("scripts/dev.ts", ["--prot", "9000"], shellEnv({}));
    expect(await unknown.exited).toBe(1);
    expect(lines(unknown.output())).toEqual([expect.stringMatching(/^npm run dev: Unknown option '--prot'.*--help\)$/)]);
  });

  it("--help lists every port flag with its variable", async () => {
    const help = runScript("scripts/dev.ts", ["--help"], shellEnv({}));
    expect(await help.exited).toBe(0);
    for (const { variable, flag } of SETTINGS) expect(help.output()).toMatch(new RegExp(`${flag} <n>.*\\[${variable}\\]`));
    expect(help.output()).toContain("[DEV_DATA_DIR]");
  });
});
