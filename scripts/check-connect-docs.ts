/**
 * @module `npm run docs:check`: runs every shell command of docs/connect.md, and its examples, on
 * this Node against a dev stack, and says which passed, failed or were skipped and why.
 *
 *   npm run docs:check                       # starts its own dev stack on free ports
 *   npm run docs:check -- --base <url>       # uses a running one (its key must be dev-key)
 *
 * The commands run as written, with the page's `http://127.0.0.1:8787` pointed at the stack and
 * `/path/to/my-app` at a fresh project in a temporary folder. It downloads what the commands
 * download (the client's dependencies, the pinned MCP Inspector), so it needs the network; it is a
 * check to run by hand, not a test. On a Node below the Inspector's floor its commands still run,
 * but a failure there is reported as unsupported rather than failing the check.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { INSPECTOR_NODE, exampleCommands, nodeAtLeast, readConnectDoc, shellBlocks } from "./connect-docs.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DOC_BASE = "http://127.0.0.1:8787";
const { values } = parseArgs({ options: { base: { type: "string" } } });

interface Outcome {
  command: string;
  verdict: "pass" | "fail" | "skip" | "unsupported";
  note: string;
}
const outcomes: Outcome[] = [];

/** Runs `script` in bash; resolves with its exit code and output (at most 1 MB). */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 300_000): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-eo", "pipefail", "-c", script], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => {
      if (output.length < 1 << 20) output += chunk.toString("utf8");
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output });
    });
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForOk(url: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

/** Starts `npm run dev` on free ports with its own data folder; answers its base URL and a stop. */
async function startStack(dataDir: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const [port, redis, vector, inspector] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env = {
    ...process.env,
    PORT: String(port),
    UPSTASH_LOCAL_REDIS_PORT: String(redis),
    UPSTASH_LOCAL_VECTOR_PORT: String(vector),
    INSPECTOR_PORT: String(inspector),
    DEV_DATA_DIR: dataDir,
  };
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/dev.ts"], { cwd: ROOT, env, stdio: ["ignore", "ignore", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
  };
  if (!(await waitForOk(`${base}/healthz`, Date.now() + 240_000))) {
    await stop();
    throw new Error("npm run dev did not serve /healthz within 4 minutes");
  }
  return { base, stop };
}

async function check(
  command: string,
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  passes: (output: string) => boolean,
  floor?: string,
) {
  const { code, output } = await bash(script, cwd, env);
  const ok = code === 0 && passes(output);
  const last = output.trim().split("\n").slice(-3).join(" | ").slice(0, 300);
  if (ok) outcomes.push({ command, verdict: "pass", note: "" });
  else if (floor && !nodeAtLeast(process.version, floor)) {
    outcomes.push({ command, verdict: "unsupported", note: `needs Node ${floor}+, this is ${process.version}: ${last}` });
  } else outcomes.push({ command, verdict: "fail", note: `exit ${code}: ${last}` });
}

const doc = readConnectDoc();
const scratch = mkdtempSync(join(tmpdir(), "agent-memory-connect-docs-"));
let stack: { base: string; stop: () => Promise<void> } | null = null;
try {
  if (values.base) stack = { base: values.base.replace(/\/$/, ""), stop: async () => {} };
  else stack = await startStack(join(scratch, "data"));
  const base = stack.base;
  const env = { ...process.env, AGENT_MEMORY_URL: base, AGENT_MEMORY_KEY: "dev-key" };
  const localize = (command: string) => command.replaceAll(DOC_BASE, base).replaceAll("localhost:8787", base.replace(/^http:\/\//, ""));
  console.log(`docs/connect.md on Node ${process.version} against ${base}`);

  for (const block of shellBlocks(doc)) {
    const commands = block.commands.map(localize);
    if (commands.some((c) => c.includes("/path/to/my-app"))) {
      // The install steps run as one script: the variable a line sets is read by the next.
      const app = join(scratch, "my-app");
      mkdirSync(app, { recursive: true });
      writeFileSync(join(app, "package.json"), JSON.stringify({ name: "my-app", version: "1.0.0", private: true, type: "module" }));
      const script = commands.map((c) => c.replaceAll("/path/to/my-app", app)).join("\n");
      await check(commands.join(" && "), `${script}\ntest -f node_modules/@agent-memory/client/dist/index.js`, ROOT, env, () => true);
      continue;
    }
    for (const command of commands) {
      const inspector = command.includes("@modelcontextprotocol/inspector");
      // The Inspector's answers and the server's: a tools list names `recall`; a tool call returns content.
      const passes = (output: string) => /"recall"|"content"/.test(output) && !/"isError":\s*true/.test(output);
      await check(command, command, ROOT, env, passes, inspector ? INSPECTOR_NODE : undefined);
    }
  }

  for (const command of exampleCommands(doc)) {
    if (command === "npm run example:chat" && !process.env.OPENAI_API_KEY && !process.env.OPENAI_BASE_URL) {
      outcomes.push({
        command,
        verdict: "skip",
        note: "needs an LLM: set OPENAI_API_KEY or OPENAI_BASE_URL for the dev stack and this run",
      });
      continue;
    }
    if (command === "npm run example:browser") {
      // A server that runs until stopped: start it, fetch its page and a token, stop it.
      const port = await freePort();
      // Its own process group (set -m), so the trap stops npm and the server it started.
      const script = `set -m; ${command} & pid=$!; trap 'kill -- -$pid' EXIT
for i in $(seq 1 120); do curl -sf http://127.0.0.1:${port}/ >/dev/null && break; sleep 0.5; done
curl -sf http://127.0.0.1:${port}/ | grep -qi '<html'
curl -sf -X POST http://127.0.0.1:${port}/token -H 'content-type: application/json' -d '{"userId":"docs-check","sessionId":"docs-check"}' | grep -q token`;
      await check(command, script, ROOT, { ...env, EXAMPLE_PORT: String(port) }, () => true);
      continue;
    }
    await check(command, `echo "exit" | ${command}`, ROOT, env, () => true);
  }
} finally {
  await stack?.stop();
  rmSync(scratch, { recursive: true, force: true });
}

for (const o of outcomes) console.log(`${o.verdict.padEnd(11)} ${o.command.slice(0, 140)}${o.note ? `\n            ${o.note}` : ""}`);
const failed = outcomes.filter((o) => o.verdict === "fail").length;
console.log(`${outcomes.length} commands: ${outcomes.filter((o) => o.verdict === "pass").length} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
