/**
 * Cold start: the CPU and wall time of the first request that counts tokens in a fresh workerd
 * isolate (the deploy bundle on its own socket, bench/support/workers/bench-worker.ts) for each bundled rank
 * table, against upstash-local with no added delay, and the bundle size of each build. Only a health
 * check (which loads no rank table) runs before it. Then the first API request (a session read,
 * which counts no tokens: what every isolate's first request costs), the first append (it counts
 * tokens, so it imports and decodes the rank table), and the same append to another session as the
 * warm figure; then the first MCP request (`tools/list` at `/mcp`: it loads the MCP SDK, which no
 * other route imports) and a second one as warm. CPU
 * is read from the workerd process's scheduler statistics (/proc/<pid>/task/<tid>/schedstat, all
 * threads, ns), so it includes everything workerd did meanwhile (HTTP, the runtime) - an upper
 * bound of the isolate's own CPU. Linux only.
 *
 *   node --import tsx bench/cold-start.ts
 */
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { startBenchWorker } from "./support/workers/bench-worker.ts";
import { cpuNs, workerdPids } from "./support/profiling/workerd-cpu.ts";

const ENCODINGS = ["cl100k_base", "o200k_base"] as const;
const RUNS = 3;
const API_KEY = "bench-key";
const TEXT =
  "I am planning a trip to Lisbon in May with my sister; we like quiet guesthouses, fado in the evening and long walks. " +
  "Budget about 900 euros for five nights. 我们也想去辛特拉一天。Any advice on trams 28 and 12?";

function bundleKiB(encoding: string): number {
  const out = join(tmpdir(), `am-bundle-${encoding}-${process.pid}`);
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out, "--define", `globalThis.__RANK_TABLE__:"${encoding}"`], {
    stdio: "ignore",
  });
  // the script and the modules beside it (a rank table's binary); not source maps or metadata
  return (
    readdirSync(out)
      .filter((name) => /\.(js|mjs|bin|wasm)$/.test(name))
      .reduce((sum, name) => sum + statSync(join(out, name)).size, 0) / 1024
  );
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const upstash = await startUpstashLocal({
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  vector: { kind: "dense" },
});
const rows: string[] = [];
try {
  for (const encoding of ENCODINGS) {
    const read = { cpu: [] as number[], wall: [] as number[] };
    const first = { cpu: [] as number[], wall: [] as number[] };
    const warm = { cpu: [] as number[], wall: [] as number[] };
    const mcpFirst = { cpu: [] as number[], wall: [] as number[] };
    const mcpWarm = { cpu: [] as number[], wall: [] as number[] };
    for (let run = 0; run < RUNS; run++) {
      const worker = await startBenchWorker(
        { ...upstash.env, VECTOR_INDEX: "dense", API_KEYS: `bench:${API_KEY}`, TOKENIZER: encoding, FACT_EXTRACTION: "off" },
        { define: { "globalThis.__RANK_TABLE__": JSON.stringify(encoding) } },
      );
      const { base } = worker;
      // a health check (no token counting, no rank table) runs first, as a deployed Worker's first
      // request would be anything; the isolate's table still is not loaded
      const health = await fetch(new URL("/healthz", base));
      await health.text();
      await new Promise((r) => setTimeout(r, 300));
      const pids = workerdPids();
      // the first API request, which counts no tokens: what the isolate's first request costs anyway
      const cpuRead = cpuNs(pids);
      const tRead = performance.now();
      const state = await fetch(new URL(`/v1/sessions/none-${Date.now()}`, base), { headers: { authorization: `Bearer ${API_KEY}` } });
      await state.text();
      if (state.status !== 200) throw new Error(`read: HTTP ${state.status}`);
      read.wall.push(performance.now() - tRead);
      read.cpu.push((cpuNs(pids) - cpuRead) / 1e6);
      const append = async (target: { cpu: number[]; wall: number[] }, session: string) => {
        const cpu0 = cpuNs(pids);
        const t0 = performance.now();
        const res = await fetch(new URL(`/v1/sessions/${session}/messages`, base), {
          method: "POST",
          headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ messages: [{ role: "user", content: TEXT }] }),
        });
        await res.text();
        if (res.status !== 201) throw new Error(`append: HTTP ${res.status}`);
        target.wall.push(performance.now() - t0);
        target.cpu.push((cpuNs(pids) - cpu0) / 1e6);
      };
      await append(first, `cold-${encoding}-${run}-${Date.now()}`);
      await append(warm, `warm-${encoding}-${run}-${Date.now()}`);
      const listTools = async (target: { cpu: number[]; wall: number[] }) => {
        const cpu0 = cpuNs(pids);
        const t0 = performance.now();
        const res = await fetch(new URL("/mcp", base), {
          method: "POST",
          headers: {
            authorization: `Bearer ${API_KEY}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        await res.text();
        if (res.status !== 200) throw new Error(`mcp: HTTP ${res.status}`);
        target.wall.push(performance.now() - t0);
        target.cpu.push((cpuNs(pids) - cpu0) / 1e6);
      };
      await listTools(mcpFirst);
      await listTools(mcpWarm);
      await worker.dispose();
    }
    rows.push(
      `| ${encoding} | ${median(read.cpu).toFixed(0)} | ${median(first.cpu).toFixed(0)} | ${median(first.wall).toFixed(0)} | ${median(warm.cpu).toFixed(0)} | ${median(warm.wall).toFixed(0)} | ${median(mcpFirst.cpu).toFixed(0)} | ${median(mcpWarm.cpu).toFixed(0)} | ${bundleKiB(encoding).toFixed(0)} |`,
    );
  }
} finally {
  await upstash.close();
}
console.log(`Cold start in a fresh workerd isolate, median of ${RUNS} isolates, no upstream delay`);
console.log(
  "first API request = GET /v1/sessions/{id} (no token counting); then the first append (loads the rank table), a warm append, the first MCP tools/list (loads the MCP SDK) and a warm one",
);
console.log(
  "| rank table | first API request CPU ms | first append CPU ms | first append wall ms | warm append CPU ms | warm wall ms | first MCP CPU ms | warm MCP CPU ms | bundle KiB |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) console.log(row);
console.log(
  "CPU = all workerd threads during the request (an upper bound of the isolate's own CPU); bundle = the script and the modules uploaded with it.",
);
