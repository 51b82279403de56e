/** @module `npm run dev` entry: starts upstash-local and `wrangler dev` on 127.0.0.1 and stops them together. */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { CONFIG_VARS } from "../src/worker/config/table.ts";
import { startUpstashLocal, type UpstashLocal } from "../tools/upstash-local/index.ts";
import { DEV_DENSE_MODEL, parseDenseModel, type DenseModel } from "../tools/upstash-local/vector/config.ts";
import { prepareDevBuild } from "./dev-build.ts";
import { applyDevDefaults } from "./dev-defaults.ts";
import { PORT_SETTINGS, parseDevCommand } from "./dev-options.ts";
import { listenFailure, portMessage, portProblem } from "./port-check.ts";

/**
 * `npm run dev`: upstash-local + `wrangler dev --test-scheduled` on 127.0.0.1, zero config; every port
 * and the data folder move by flag or variable (`npm run dev -- --help`). Every Worker variable set in
 * this shell is forwarded; setting the four UPSTASH_* variables points the Worker at a real Upstash and
 * skips the emulators. Problems a person can fix (a busy port, a bad value) end in one line, no trace.
 */
const HOST = "127.0.0.1";
const env = process.env;

function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

const command = parseDevCommand(process.argv.slice(2), env);
if ("help" in command) {
  console.log(command.help);
  process.exit(0);
}
if ("error" in command) fail(`npm run dev: ${command.error}`);
const options = command.options;

const forwarded: Record<string, string> = {};
for (const v of Object.values(CONFIG_VARS)) {
  const value = env[v.name];
  if (value !== undefined && value !== "") forwarded[v.name] = value;
}
const realUpstash = ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "UPSTASH_VECTOR_REST_URL", "UPSTASH_VECTOR_REST_TOKEN"].every(
  (name) => forwarded[name] !== undefined,
);

// Every port is checked before anything starts, so a busy one never leaves half a stack running.
const emulatorPort = (key: string): boolean => key === "redisPort" || key === "vectorPort";
for (const setting of PORT_SETTINGS.filter((s) => !realUpstash || !emulatorPort(s.key))) {
  const problem = await portProblem(options[setting.key], HOST);
  if (problem !== null) fail(portMessage(setting, options[setting.key], problem));
}

// The dense model of the emulated hybrid index: the sentence model unless the shell picks a hashing one.
let denseModel: DenseModel = DEV_DENSE_MODEL;
try {
  const wanted = env.UPSTASH_LOCAL_VECTOR_DENSE_MODEL?.trim();
  if (wanted) denseModel = parseDenseModel(wanted, "UPSTASH_LOCAL_VECTOR_DENSE_MODEL");
} catch (err) {
  fail(`npm run dev: ${(err as Error).message}`);
}

let local: UpstashLocal | null = null;
if (!realUpstash) {
  try {
    local = await startUpstashLocal({
      host: HOST,
      redisPort: options.redisPort,
      vectorPort: options.vectorPort,
      dataDir: join(options.dataDir, "upstash-local"),
      redisUrl: env.REDIS_URL || undefined,
      vector: { kind: "hybrid", denseModel },
    });
  } catch (err) {
    // A port taken between the check and the listen still gets the one-line answer.
    const failure = listenFailure(err);
    const setting = failure && PORT_SETTINGS.find((s) => options[s.key] === failure.port);
    if (failure && setting) fail(portMessage(setting, failure.port, failure.code));
    fail(`npm run dev: upstash-local did not start: ${(err as Error).message}`);
  }
  Object.assign(forwarded, local.env);
  console.log(
    `upstash-local: redis ${local.redis.url} (${env.REDIS_URL ? `forwarding to ${env.REDIS_URL}` : "embedded engine"}), ` +
      `vector ${local.vector.url} (hybrid, dense model ${denseModel})`,
  );
}
const defaults = applyDevDefaults(forwarded, env);

// An env file keeps values with commas and colons intact (unlike --var KEY:VALUE) and out of `ps`.
mkdirSync(options.dataDir, { recursive: true });
const envFile = join(options.dataDir, "dev.env");
writeFileSync(
  envFile,
  `${Object.entries(forwarded)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join("\n")}\n`,
  { mode: 0o600 },
);

// The build step before wrangler starts: wrangler's own `[build]` would build twice per start.
let build: Awaited<ReturnType<typeof prepareDevBuild>>;
try {
  build = await prepareDevBuild();
} catch (err) {
  await local?.close();
  fail(`npm run dev: the build step failed: ${(err as Error).message}`);
}
for (const note of build.notes) console.log(note);

// Run wrangler's own entry with this Node (no npx layer) in a process group of its own: wrangler's
// entry starts its CLI, which starts workerd and esbuild, and stopping the group stops all of them,
// even when a forced stop is needed (killing the entry alone would leave workerd running).
const wranglerBin = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");
const wranglerArgs = [
  "dev",
  "--config",
  build.config,
  "--ip",
  HOST,
  "--port",
  String(options.port),
  "--inspector-port",
  String(options.inspectorPort),
  // Wrangler's own state (the R2 bucket, caches) lives beside the rest of this run's data: two dev
  // stacks with their own data folders then never share one SQLite file (SQLITE_BUSY at start).
  "--persist-to",
  join(options.dataDir, "wrangler"),
];
const wrangler = spawn(
  process.execPath,
  [wranglerBin, ...wranglerArgs, "--test-scheduled", "--env-file", envFile, "--show-interactive-dev-session=false"],
  {
    // No stdin: a process outside the terminal's foreground group that read it would be stopped.
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
    // Miniflare would fetch the `Request.cf` placeholder from the network on every start (a DNS
    // failure and its stack trace, twice, when offline); the Worker never reads `request.cf`.
    env: { ...env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: env.CLOUDFLARE_CF_FETCH_ENABLED ?? "false" },
  },
);
console.log(`agent-memory: http://${HOST}:${options.port}  (data in ${options.dataDir})`);
for (const note of defaults) console.log(`  dev default, ${note}`);

const signalWrangler = (signal: NodeJS.Signals): void => {
  try {
    process.kill(-(wrangler.pid as number), signal);
  } catch {
    // the group has already ended
  }
};

let stopping = false;
const stop = async (code: number): Promise<void> => {
  if (stopping) return;
  stopping = true;
  if (wrangler.exitCode === null && wrangler.signalCode === null) {
    const exited = new Promise((resolve) => wrangler.once("exit", resolve));
    signalWrangler("SIGINT");
    const forced = setTimeout(() => signalWrangler("SIGKILL"), 10_000);
    await exited;
    clearTimeout(forced);
  }
  // The entry may exit before its CLI and workerd have: make sure nothing of the group is left.
  signalWrangler("SIGKILL");
  await local?.close();
  process.exit(code);
};
wrangler.on("exit", (code) => void stop(code ?? 0));
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
