/**
 * What tracing and metrics cost one request: a context read with a recall query (20-message
 * session, 30 facts of the user), read 300 times with tracing and metrics off and 300 times with
 * them on, interleaved, over upstash-local. Prints, per request: Redis requests on the response path
 * and in the background, bytes sent to Redis in the background, the stored trace's size, CPU time
 * and response-path latency (median). Asserts nothing.
 *
 *   npx tsx bench/trace.ts              (embedded Redis engine)
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/trace.ts   (forwarded to a real Redis)
 */
import { performance } from "node:perf_hooks";
import { Redis } from "@upstash/redis";
import { loadTokenCounter } from "../src/llm/tokenizer.ts";
import { SessionMemory } from "../src/memory/sessions/session-memory.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../src/memory/options.ts";
import { RedisMetricsStore } from "../src/stores/metrics-store.ts";
import { RedisSessionStore } from "../src/stores/session-store.ts";
import { RedisTraceStore } from "../src/stores/trace-store.ts";
import { RedisUserStore } from "../src/stores/user-store.ts";
import { RequestObservation } from "../src/worker/request-observation.ts";
import { createFact } from "../src/memory/facts/identity.ts";
import { InMemoryFactStore } from "../test/support/fakes/facts.ts";
import { testDeps } from "../test/support/memory-deps.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";

const READS = 300;
const WARMUP = 20;

const upstash = await startUpstashLocal({ redisPort: 0, vectorPort: 0, redisUrl: process.env.REDIS_URL || undefined });
const redis = new Redis({ url: upstash.redis.url, token: upstash.token, enableTelemetry: false });
const counter = await loadTokenCounter();
const facts = new InMemoryFactStore();
const sessions = new RedisSessionStore(redis);
const traces = new RedisTraceStore(redis);
const metrics = new RedisMetricsStore(redis);
const run = crypto.randomUUID().slice(0, 8);
const tenant = `bench${run}`;
const scope = { tenant, userId: "bench-user" };
const sessionId = `trace-${run}`;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

// Every byte the client sends to Redis, counted at fetch (the emulator's own log keeps only 2 KB).
let sentBytes = 0;
let sentRequests = 0;
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  sentRequests += 1;
  sentBytes += typeof init?.body === "string" ? Buffer.byteLength(init.body) : 0;
  return realFetch(input, init);
};

const topics = ["green tea", "Porto", "a blue bicycle", "jazz", "Rust", "the dentist on Thursday", "hiking", "sourdough", "chess", "cats"];
await facts.upsert(
  scope,
  Array.from({ length: 30 }, (_, i) =>
    createFact(
      `f${i}`,
      { text: `The user mentioned ${topics[i % topics.length]} (note ${i})`, type: "fact", importance: 0.3 + (i % 7) / 10 },
      Date.now(),
    ),
  ),
);
const setup = testDeps({ tenant, counter, sessions, users: new RedisUserStore(redis), facts, options: { ...DEFAULT_MEMORY_OPTIONS } });
await new SessionMemory(setup, { sessionId, userId: scope.userId }).add([
  { role: "system", content: "You are a helpful assistant." },
  ...Array.from({ length: 20 }, (_, i) => ({
    role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
    content: `Turn ${i}: we talked about ${topics[i % topics.length]} for a while.`,
  })),
]);
await setup.settle();

interface Sample {
  ms: number;
  cpuUs: number;
  pathRequests: number;
  backgroundRequests: number;
  backgroundBytes: number;
  traceBytes: number;
}

/** One request as the runtime serves it: the read, then (traced) the log line and the writes in waitUntil. */
async function request(traced: boolean): Promise<Sample> {
  const jobs: Promise<unknown>[] = [];
  const observation = new RequestObservation({
    requestId: crypto.randomUUID(),
    traceTtlSeconds: 600,
    traces,
    metrics,
    logger: silent,
    now: Date.now,
    newId: () => crypto.randomUUID(),
    background: (work) => void jobs.push(work),
  });
  observation.tenant = tenant;
  const deps = testDeps({ tenant, counter, sessions, users: setup.users, facts, options: { ...DEFAULT_MEMORY_OPTIONS } });
  if (traced) Object.assign(deps, { trace: observation.trace, metrics: observation.metrics });
  const cpu = process.cpuUsage();
  sentRequests = 0;
  const started = performance.now();
  if (traced) observation.beginTrace("context", { sessionId, userId: scope.userId }, false);
  await new SessionMemory(deps, { sessionId, userId: scope.userId }).getContext({
    query: "what does the user drink, green tea?",
    countRecalls: false,
  });
  const pathRequests = sentRequests;
  const bytesBefore = sentBytes;
  // The writes start here but nothing waits for them: the response is already on its way.
  if (traced) observation.finish({ route: "/v1/sessions/:sessionId/context", method: "GET", status: 200, durationMs: 1 });
  const ms = performance.now() - started;
  const traceBytes = traced ? Buffer.byteLength(JSON.stringify(observation.trace.snapshot())) : 0;
  await Promise.all(jobs);
  const used = process.cpuUsage(cpu);
  return {
    ms,
    cpuUs: used.user + used.system,
    pathRequests,
    backgroundRequests: sentRequests - pathRequests,
    backgroundBytes: sentBytes - bytesBefore,
    traceBytes,
  };
}

for (let i = 0; i < WARMUP; i++) {
  await request(false);
  await request(true);
}
const off: Sample[] = [];
const on: Sample[] = [];
for (let i = 0; i < READS; i++) {
  off.push(await request(false));
  on.push(await request(true));
}
globalThis.fetch = realFetch;
await upstash.close();

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const row = (name: string, s: Sample[]) =>
  `| ${name} | ${mean(s.map((x) => x.pathRequests)).toFixed(2)} | ${mean(s.map((x) => x.backgroundRequests)).toFixed(2)} | ${Math.round(mean(s.map((x) => x.backgroundBytes)))} | ${Math.round(mean(s.map((x) => x.traceBytes)))} | ${median(s.map((x) => x.cpuUs / 1000)).toFixed(3)} | ${median(s.map((x) => x.ms)).toFixed(2)} |`;

const backend = process.env.REDIS_URL ? `real Redis at ${process.env.REDIS_URL} via upstash-local` : "upstash-local embedded engine";
console.log(
  `Context read with a recall query (20 messages, 30 facts of the user), ${READS} requests each after ${WARMUP} warm-up, ${backend}`,
);
console.log(
  "| tracing + metrics | Redis requests on the response path | background Redis requests | background bytes sent | stored trace bytes | CPU ms (median, incl. background) | response-path ms (median) |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|");
console.log(row("off", off));
console.log(row("on", on));
console.log(
  `CPU added per request (median on - median off, includes the in-process emulator serving 2 more requests): ${(median(on.map((x) => x.cpuUs / 1000)) - median(off.map((x) => x.cpuUs / 1000))).toFixed(3)} ms`,
);

// The recording alone, without I/O: the same read over in-memory stores, 3000 times each way; the
// traced run also builds the stored trace's JSON and the metrics batch, as the writes would.
const { InMemorySessionStore } = await import("../test/support/fakes/sessions.ts");
const memSessions = new InMemorySessionStore();
const pure = testDeps({ tenant, counter, sessions: memSessions, facts, options: { ...DEFAULT_MEMORY_OPTIONS } });
await new SessionMemory(pure, { sessionId, userId: scope.userId }).add([
  { role: "system", content: "You are a helpful assistant." },
  ...Array.from({ length: 20 }, (_, i) => ({
    role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
    content: `Turn ${i}: we talked about ${topics[i % topics.length]}.`,
  })),
]);
const serialized: number[] = [];
const sink = {
  put: async (_t: string, trace: unknown) => void serialized.push(JSON.stringify(trace).length),
  get: async () => null,
  eraseUser: async () => ({ removed: 0, more: false }),
  recent: async () => [],
};
const batchSink = {
  record: async (_t: string, batch: unknown) => void serialized.push(JSON.stringify(batch).length),
  read: () => Promise.reject(new Error("unused")),
};
async function pureRead(traced: boolean): Promise<void> {
  const jobs: Promise<unknown>[] = [];
  const o = new RequestObservation({
    requestId: "r",
    traceTtlSeconds: 600,
    traces: sink,
    metrics: batchSink,
    logger: silent,
    now: Date.now,
    newId: () => "t",
    background: (w) => void jobs.push(w),
  });
  o.tenant = tenant;
  const deps = traced ? { ...pure, trace: o.trace, metrics: o.metrics } : pure;
  if (traced) o.beginTrace("context", { sessionId, userId: scope.userId }, false);
  await new SessionMemory(deps, { sessionId, userId: scope.userId }).getContext({
    query: "what does the user drink, green tea?",
    countRecalls: false,
  });
  if (traced) o.finish({ route: "/v1/sessions/:sessionId/context", method: "GET", status: 200, durationMs: 1 });
  await Promise.all(jobs);
}
const PURE = 3000;
for (let i = 0; i < 200; i++) {
  await pureRead(false);
  await pureRead(true);
}
const timeOf = async (traced: boolean): Promise<number> => {
  const t0 = performance.now();
  for (let i = 0; i < PURE; i++) await pureRead(traced);
  return ((performance.now() - t0) / PURE) * 1000;
};
const pureOff = await timeOf(false);
const pureOn = await timeOf(true);
console.log(
  `Recording only (in-memory stores, ${PURE} reads each): ${pureOff.toFixed(1)} us/read off, ${pureOn.toFixed(1)} us/read on, +${(pureOn - pureOff).toFixed(1)} us for the trace, the metrics batch and their JSON`,
);
