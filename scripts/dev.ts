import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { CONFIG_VARS } from "../src/worker/config-table.ts";
import { startUpstashLocal, type UpstashLocal } from "../tools/upstash-local/index.ts";

/**
 * `npm run dev`: upstash-local + `wrangler dev --test-scheduled` on 127.0.0.1:8787, zero config.
 * Every Worker variable set in this shell is forwarded; setting the four UPSTASH_* variables
 * points the Worker at a real Upstash and skips the emulators.
 */
const DATA_DIR = ".data";
const env = process.env;
const forwarded: Record<string, string> = {};
for (const v of Object.values(CONFIG_VARS)) {
  const value = env[v.name];
  if (value !== undefined && value !== "") forwarded[v.name] = value;
}

const realUpstash = ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "UPSTASH_VECTOR_REST_URL", "UPSTASH_VECTOR_REST_TOKEN"].every(
  (name) => forwarded[name] !== undefined,
);
let local: UpstashLocal | null = null;
if (!realUpstash) {
  local = await startUpstashLocal({ dataDir: `${DATA_DIR}/upstash-local`, redisUrl: env.REDIS_URL || undefined });
  Object.assign(forwarded, local.env);
  console.log(`upstash-local: redis ${local.redis.url} (${env.REDIS_URL ? `forwarding to ${env.REDIS_URL}` : "embedded engine"}), vector ${local.vector.url}`);
}
forwarded.API_KEYS ??= "dev:dev-key";

// An env file keeps values with commas and colons intact (unlike --var KEY:VALUE) and out of `ps`.
mkdirSync(DATA_DIR, { recursive: true });
const envFile = `${DATA_DIR}/dev.env`;
writeFileSync(envFile, Object.entries(forwarded).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join("\n") + "\n", { mode: 0o600 });

// Run wrangler's own entry with this Node (no npx layer), so signals reach it directly.
const wranglerBin = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");
const wrangler = spawn(
  process.execPath,
  [wranglerBin, "dev", "--ip", "127.0.0.1", "--port", env.PORT ?? "8787", "--test-scheduled", "--env-file", envFile, "--show-interactive-dev-session=false"],
  { stdio: "inherit", env: { ...env, WRANGLER_SEND_METRICS: "false" } },
);
console.log(`agent-memory: http://127.0.0.1:${env.PORT ?? "8787"}  (API key: ${forwarded.API_KEYS === "dev:dev-key" ? "dev-key, tenant dev" : "from API_KEYS"})`);

let stopping = false;
const stop = async (code: number): Promise<void> => {
  if (stopping) return;
  stopping = true;
  if (wrangler.exitCode === null) {
    wrangler.kill("SIGINT");
    const forced = setTimeout(() => wrangler.kill("SIGKILL"), 5000);
    await new Promise((resolve) => wrangler.once("exit", resolve));
    clearTimeout(forced);
  }
  await local?.close();
  process.exit(code);
};
wrangler.on("exit", (code) => void stop(code ?? 0));
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
