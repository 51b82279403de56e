/**
 * Where a request's CPU goes in the Worker: CPU per phase in workerd for the context read, an
 * append, a chat turn and the OpenAI-compatible proxy, on sessions of 10 and 1,000 messages.
 *
 * The Worker runs in local workerd (wrangler's `unstable_startWorker`) behind a profiling entry
 * (bench/support/profile-entry.ts) that records one real request's upstream replies and then
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
import { startBenchWorker } from "./support/bench-worker.ts";
import { cpuNs, workerdPids } from "./support/workerd-cpu.ts";

const API_KEY = "bench-key";
const SIZES = (process.env.PROFILE_SIZES ?? "10,1000").split(",").map(Number);
const LIVE_WARMUP = 3;
const LIVE_RUNS = 20;
const REPEATS = 5;
const SEALED = process.env.PROFILE_SEALED === "1";
const AUTH = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

const messageText = (i: number): string =>
  i % 2 === 0
    ? `Turn ${i}: I am planning a trip to Lisbon in May, budget ${500 + (i % 40) * 10} euros. Any hotel near Alfama?`
    : `Turn ${i}: Try a guesthouse in Alfama around ${60 + (i % 30)} euros a night; trams 28 and 12 stop nearby.`;

const upstash = await startUpstashLocal({
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  vector: { kind: "dense" },
});
const fake = await startFakeOpenAI({ port: 0 });
fake.setMode({ mode: "fixed", text: "Noted, thanks for telling me." });
const { worker, base } = await startBenchWorker(
  {
    ...upstash.env,
    VECTOR_INDEX: "dense", // the index upstash-local serves here (the Worker defaults to hybrid)
    API_KEYS: `bench:${API_KEY}`,
    OPENAI_BASE_URL: `${fake.url}/v1`,
    OPENAI_API_KEY: "bench",
    // no compression: the sessions keep their size through the run
    MEMORY_MAX_TOKENS: "1000000",
    ...(SEALED ? { MEMORY_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}` } : {}),
  },
  undefined,
  "bench/support/profile-entry.ts",
);

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(new URL(path, base), init);
  return { status: res.status, text: await res.text() };
}

interface Spec {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  texts: string[];
  /** A fresh body per live request (ids that must not repeat). */
  live: (i: number) => string | undefined;
}

async function seed(sessionId: string, total: number): Promise<void> {
  await call(`/v1/sessions/${sessionId}/messages`, {
    method: "POST",
    headers: AUTH,
    body: JSON.stringify({ messages: [{ role: "system", content: "You are a travel assistant." }] }),
  });
  for (let start = 0; start < total; start += 100) {
    const messages = Array.from({ length: Math.min(100, total - start) }, (_, j) => ({
      role: (start + j) % 2 === 0 ? "user" : "assistant",
      content: messageText(start + j),
    }));
    const res = await call(`/v1/sessions/${sessionId}/messages`, { method: "POST", headers: AUTH, body: JSON.stringify({ messages }) });
    if (res.status !== 201) throw new Error(`seed: HTTP ${res.status} ${res.text.slice(0, 200)}`);
  }
}

const run = Date.now().toString(36);
const only = process.env.PROFILE_ONLY ? new RegExp(process.env.PROFILE_ONLY) : null;
const specs: Spec[] = [];
for (const size of SIZES) {
  const session = `prof-${run}-${size}`;
  await seed(session, size);
  const pair = (i: number) => [
    { role: "user", content: `Question ${i}: which day suits Sintra best, and should we book the Pena palace ahead?` },
    { role: "assistant", content: `Answer ${i}: a weekday; book the palace online, the morning slots sell out first.` },
  ];
  specs.push({
    name: `context read, ${size}`,
    method: "GET",
    path: `/v1/sessions/${session}/context`,
    headers: AUTH,
    texts: [],
    live: () => undefined,
  });
  specs.push({
    name: `append a pair, ${size}`,
    method: "POST",
    path: `/v1/sessions/${session}/messages`,
    headers: AUTH,
    body: JSON.stringify({ messages: pair(0) }),
    texts: pair(0).map((m) => m.content),
    live: (i) => JSON.stringify({ messages: pair(i) }),
  });
  const chat = (i: number) => ({
    message: `turn ${i}: what should we plan next in Lisbon?`,
    messageId: `c-${run}-${i}`,
    userId: `u-${run}`,
    persist: false,
  });
  specs.push({
    name: `chat turn, ${size}`,
    method: "POST",
    path: `/v1/sessions/${session}/chat`,
    headers: AUTH,
    body: JSON.stringify(chat(0)),
    texts: [chat(0).message, "Noted, thanks for telling me."],
    live: (i) => JSON.stringify(chat(i + 1)),
  });
  const proxy = (i: number) => ({ model: "gpt-4o-mini", messages: [{ role: "user", content: `proxy turn ${i}: and the day after?` }] });
  specs.push({
    name: `proxy, ${size}`,
    method: "POST",
    path: "/v1/chat/completions",
    headers: { ...AUTH, "x-memory-session": session },
    body: JSON.stringify(proxy(0)),
    texts: [proxy(0).messages[0]!.content, "Noted, thanks for telling me."],
    live: (i) => JSON.stringify(proxy(i + 1)),
  });
}

if (only) specs.splice(0, specs.length, ...specs.filter((s) => only.test(s.name)));
const pids = workerdPids();
if (pids.length === 0) throw new Error("no workerd process found below this one");

/** Median CPU ms of one live request, all workerd threads. */
async function liveCpu(spec: Spec): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < LIVE_WARMUP + LIVE_RUNS; i++) {
    const body = spec.live(1000 + i);
    const cpu0 = cpuNs(pids);
    const res = await call(spec.path, { method: spec.method, headers: spec.headers, ...(body !== undefined ? { body } : {}) });
    const cpu = (cpuNs(pids) - cpu0) / 1e6;
    if (res.status >= 300) throw new Error(`${spec.name}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
    if (i >= LIVE_WARMUP) samples.push(cpu);
    // let waitUntil work end before the next request is measured
    await new Promise((r) => setTimeout(r, 30));
  }
  return median(samples);
}

const byName = new Map(specs.map((s) => [s.name, s]));

/** Records one real request of `spec` in the isolate (again after workerd replaced the isolate). */
async function record(spec: Spec): Promise<void> {
  const rec = await call("/__profile/record", {
    method: "POST",
    body: JSON.stringify({
      name: spec.name,
      method: spec.method,
      path: spec.path,
      headers: spec.headers,
      body: spec.body,
      texts: spec.texts,
    }),
  });
  if (rec.status !== 200) throw new Error(`record ${spec.name}: ${rec.text}`);
  if (process.env.PROFILE_DEBUG) console.log(spec.name, rec.text);
}

async function profileRun(scenario: string, phase: string, n: number, retry = true): Promise<number> {
  const cpu0 = cpuNs(pids);
  const res = await call("/__profile/run", { method: "POST", body: JSON.stringify({ scenario, phase, n }) });
  const cpu = cpuNs(pids) - cpu0;
  const out = JSON.parse(res.text) as { misses?: number; error?: string };
  if (res.status === 400 && retry && /unknown scenario/.test(res.text)) {
    await record(byName.get(scenario)!);
    return profileRun(scenario, phase, n, false);
  }
  if (res.status !== 200) throw new Error(`${scenario} / ${phase}: ${res.text}`);
  if (out.misses) throw new Error(`${scenario} / ${phase}: ${out.misses} upstream calls were not recorded`);
  return cpu;
}

/**
 * CPU ms of one repetition of a phase: (N repetitions - an empty run) / N, the least of REPEATS
 * (other processes and workerd's own threads only ever add to a sample).
 */
async function phaseCpu(scenario: string, phase: string, n: number): Promise<number> {
  const samples: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    await profileRun(scenario, phase, Math.max(1, Math.floor(n / 10))); // warm the phase
    const empty = await profileRun(scenario, "noop", 1);
    const full = await profileRun(scenario, phase, n);
    samples.push(Math.max(0, full - empty) / n / 1e6);
  }
  return Math.min(...samples);
}

const PHASES: { phase: string; n: number; only?: RegExp }[] = [
  { phase: "routing", n: 2000 },
  { phase: "config", n: 2000 },
  { phase: "config (unparsed)", n: 200 },
  { phase: "auth", n: 1000 },
  { phase: "runtime", n: 1000 },
  { phase: "validation", n: 500 },
  { phase: "token counting", n: 300 },
  { phase: "redis client", n: 200 },
  { phase: "reply parsing", n: 200 },
  { phase: "context assembly", n: 200, only: /^(context|chat|proxy)/ },
  { phase: "rendering", n: 500 },
  { phase: "encryption", n: 100 },
];
const PARTS = [
  "routing",
  "config",
  "auth",
  "runtime",
  "validation",
  "token counting",
  "redis client",
  "reply parsing",
  "context assembly",
  "rendering",
  "encryption",
];

/** The same measure for a request that touches nothing upstream (a 404): what local workerd and wrangler cost per request. */
async function liveFloor(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < LIVE_WARMUP + LIVE_RUNS; i++) {
    const cpu0 = cpuNs(pids);
    const res = await call("/v1/no-such-route", { headers: AUTH });
    const cpu = (cpuNs(pids) - cpu0) / 1e6;
    if (res.status !== 404) throw new Error(`floor: HTTP ${res.status}`);
    if (i >= LIVE_WARMUP) samples.push(cpu);
    await new Promise((r) => setTimeout(r, 30));
  }
  return median(samples);
}

const table = new Map<string, Map<string, number>>();
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

const cols = specs.map((s) => s.name);
const floorRow = `| a 404, live (no upstream; the local workerd + wrangler floor) | ${floor.toFixed(2)} |`;
console.log(
  `Worker CPU per request and per phase in workerd, ms${SEALED ? " (MEMORY_ENCRYPTION_KEYS set)" : ""}; upstash-local, no added delay`,
);
console.log(`| phase | ${cols.join(" | ")} |`);
console.log(`|---|${cols.map(() => "---:").join("|")}|`);
const order = [
  "warm request, live (all workerd threads)",
  "request (replayed)",
  "until LLM",
  ...PARTS,
  "config (unparsed)",
  "other (request - phases)",
];
for (const row of order) {
  const r = table.get(row);
  if (!r) continue;
  console.log(`| ${row} | ${cols.map((c) => (r.has(c) ? r.get(c)!.toFixed(r.get(c)! < 0.1 ? 3 : 2) : "")).join(" | ")} |`);
}
console.log(floorRow);
console.log(
  "live = median of 20 real requests (after 3), all workerd threads; phases = (N repeats - empty run) / N, least of 5, replayed upstream.",
);
console.log("'config' is what a request pays (cached per bindings object); 'config (unparsed)' is a full parse, for reference.");
