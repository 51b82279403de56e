/**
 * Where a request's CPU goes in the Worker: CPU per phase in workerd for the context read, an
 * append, a chat turn and the OpenAI-compatible proxy, on sessions of 10 and 1,000 messages, and
 * the context read with recall (a user of 40 facts, the peers bench's) on the first size.
 *
 * The Worker runs in local workerd (bench/support/workers/bench-worker.ts) behind a profiling entry
 * (bench/support/profiling/entry.ts) that records one real request's upstream replies and then
 * repeats a phase N times against the replayed replies, in one request; CPU is read from outside,
 * from workerd's scheduler statistics, around that request, less an empty one, divided by N.
 * workerd's clocks stand still while JavaScript runs, so a phase cannot time itself.
 *
 * - "warm request, live" is the CPU of one real request (upstream answering, no added delay), all
 *   workerd threads (HTTP, the subrequests): what bench/cold-start.ts calls the warm figure.
 * - "request (replayed)" is the Worker's JavaScript alone for the same request and the work it
 *   leaves to `waitUntil` (traces, metrics); the phases below it are parts of it ("other" is the
 *   rest: Hono, middleware, use-case glue, observation, logging, the replaying fetch).
 * - "until LLM" (chat, proxy): the request up to its LLM call, which then fails at once.
 *
 *   node --import tsx bench/cpu-profile.ts            (PROFILE_SEALED=1: with MEMORY_ENCRYPTION_KEYS)
 *
 * CPU figures are read while other processes share the machine; they count only CPU time workerd
 * itself ran, so they hold up under load better than wall time, but caches and frequency still move them.
 */
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { startBenchWorker } from "./support/workers/bench-worker.ts";
import { profiler } from "./support/profiling/measure.ts";
import { PARTS, PHASES, printTable, type Table } from "./support/profiling/report.ts";
import { API_KEY, buildSpecs } from "./support/profiling/specs.ts";
import { workerdPids } from "./support/profiling/workerd-cpu.ts";

const SIZES = (process.env.PROFILE_SIZES ?? "10,1000").split(",").map(Number);
const SEALED = process.env.PROFILE_SEALED === "1";

const upstash = await startUpstashLocal({
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  vector: { kind: "hybrid" },
});
const fake = await startFakeOpenAI({ port: 0 });
fake.setMode({ mode: "fixed", text: "Noted, thanks for telling me." });
const worker = await startBenchWorker(
  {
    ...upstash.env,
    VECTOR_INDEX: "hybrid", // the Worker's default, as upstash-local serves it here
    API_KEYS: `bench:${API_KEY}`,
    OPENAI_BASE_URL: `${fake.url}/v1`,
    OPENAI_API_KEY: "bench",
    // no compression: the sessions keep their size through the run
    MEMORY_MAX_TOKENS: "1000000",
    ...(SEALED ? { MEMORY_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}` } : {}),
  },
  { entrypoint: "bench/support/profiling/entry.ts" },
);
const { base } = worker;

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(new URL(path, base), init);
  return { status: res.status, text: await res.text() };
}

const run = Date.now().toString(36);
const only = process.env.PROFILE_ONLY ? new RegExp(process.env.PROFILE_ONLY) : null;
const specs = await buildSpecs(call, SIZES, run);

if (only) specs.splice(0, specs.length, ...specs.filter((s) => only.test(s.name)));
const pids = workerdPids();
if (pids.length === 0) throw new Error("no workerd process found below this one");
const { liveCpu, record, phaseCpu, liveFloor } = profiler(call, pids, specs);

const table: Table = new Map();
const put = (row: string, col: string, v: number) => {
  const r = table.get(row) ?? new Map<string, number>();
  r.set(col, v);
  table.set(row, r);
};

let floor = NaN;
try {
  floor = await liveFloor();
  for (const spec of specs) {
    put("warm request, live (all workerd threads)", spec.name, await liveCpu(spec));
    await record(spec);
    put("request (replayed)", spec.name, await phaseCpu(spec.name, "request+background", 50));
    if (/^(chat|proxy)/.test(spec.name)) put("until LLM", spec.name, await phaseCpu(spec.name, "until LLM", 50));
    for (const { phase, n, only } of PHASES) {
      if (only && !only.test(spec.name)) continue;
      put(phase, spec.name, await phaseCpu(spec.name, phase, n));
    }
    const parts = PARTS.reduce((sum, p) => sum + (table.get(p)?.get(spec.name) ?? 0), 0);
    put("other (request - phases)", spec.name, Math.max(0, (table.get("request (replayed)")?.get(spec.name) ?? 0) - parts));
  }
} finally {
  await worker.dispose();
  await fake.close();
  await upstash.close();
}

printTable(
  table,
  specs.map((s) => s.name),
  floor,
  SEALED,
);
