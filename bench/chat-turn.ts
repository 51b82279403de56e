/**
 * Latency of one chat turn (`POST /v1/sessions/{id}/chat`) in the real Worker (its deploy bundle
 * in local workerd, bench/support/workers/bench-worker.ts) against upstash-local with 20 ms added to every
 * upstream request and the fake OpenAI-compatible server answering after a fixed 100 ms.
 *
 * Per turn it measures, from the timestamps of a small proxy in front of the fake LLM and of the
 * emulators' request logs: the time before the LLM call, the LLM call itself, the time after it
 * until the response is complete, and the sequential upstream round trips ("waves": requests that
 * start together count once) before and after the LLM call.
 *
 * Run with `npx tsx bench/chat-turn.ts` (REDIS_URL=redis://... forwards to a real Redis; otherwise
 * the embedded engine). Prints figures only.
 */
import { createHash } from "node:crypto";
import { CONTENT_LOOKUP_LUA, CONTENT_RECORD_LUA } from "../src/stores/lua/content-index.ts";
import { CONFIRM_FACTS_LUA, PENDING_FACTS_LUA } from "../src/stores/lua/user-records.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import type { RequestLogEntry } from "../tools/upstash-local/listener.ts";
import { startBenchWorker } from "./support/workers/bench-worker.ts";
import { startTimingProxy } from "./support/workers/timing-proxy.ts";

const UPSTREAM_DELAY_MS = 20;
const sha1 = (source: string): string => createHash("sha1").update(source).digest("hex");
/** Scripts only background work runs (fact delivery, the content index): never on the critical path. */
const BACKGROUND_SCRIPTS = [PENDING_FACTS_LUA, CONFIRM_FACTS_LUA, CONTENT_LOOKUP_LUA, CONTENT_RECORD_LUA].map(sha1);
const LLM_DELAY_MS = 100;
const WARMUP = 3;
const TURNS = 30;
const API_KEY = "bench-key";
const REPLY = "Noted, thanks for telling me.";

/** Sequential round trips among requests: one that starts within half the upstream delay of the wave's first joins it. */
function waves(entries: readonly RequestLogEntry[]): number {
  let count = 0;
  let start = Number.NEGATIVE_INFINITY;
  for (const at of entries.map((e) => e.at).sort((a, b) => a - b)) {
    if (at - start >= UPSTREAM_DELAY_MS / 2) {
      count += 1;
      start = at;
    }
  }
  return count;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

interface Sample {
  total: number;
  before: number;
  llm: number;
  after: number;
  rtBefore: number;
  rtAfter: number;
  redisBefore: number;
  vectorBefore: number;
  /** Requests of the turn other than those before the LLM call and the reply's append (waitUntil work). */
  bgRedis: number;
  bgVector: number;
}

const upstash = await startUpstashLocal({
  delayMs: UPSTREAM_DELAY_MS,
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  vector: { kind: "dense" },
});
const fake = await startFakeOpenAI({ port: 0 });
fake.setMode({ mode: "fixed", text: REPLY, delayMs: LLM_DELAY_MS, chunkDelayMs: 2 });
const proxy = await startTimingProxy(fake);

const worker = await startBenchWorker({
  ...upstash.env,
  OPENAI_BASE_URL: `${proxy.url}/v1`,
  OPENAI_API_KEY: "bench",
  API_KEYS: `bench:${API_KEY}`,
  // No compression during the measured turns: it would add background requests to the logs.
  MEMORY_MAX_TOKENS: "1000000",
  // The index above is dense. Learning is off: every non-filler message reaches the learner, whose
  // background requests start next to the LLM call and would be counted before it
  // (`bench/learning-llm.ts` measures learning).
  VECTOR_INDEX: "dense",
  FACT_EXTRACTION: "off",
});
const { base } = worker;

async function turn(sessionId: string, userId: string, i: number, options: { persist?: boolean; stream?: boolean }): Promise<Sample> {
  const message = `turn ${i} of session ${sessionId}: what should we plan next`;
  upstash.redis.resetLog();
  upstash.vector.resetLog();
  const callsBefore = proxy.calls.length;
  const t0 = Date.now();
  const res = await fetch(new URL(`/v1/sessions/${sessionId}/chat`, base), {
    method: "POST",
    headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ message, messageId: `m-${i}`, userId, persist: options.persist ?? false, stream: options.stream ?? false }),
  });
  const text = await res.text();
  const tEnd = Date.now();
  if (res.status !== 200) throw new Error(`turn ${i}: HTTP ${res.status} ${text.slice(0, 300)}`);
  if (options.stream && !text.includes("event: done")) throw new Error(`turn ${i}: the stream did not finish: ${text.slice(0, 300)}`);
  const llm = proxy.calls.slice(callsBefore).find((c) => c.body.includes(`turn ${i} of session`));
  if (!llm) throw new Error(`turn ${i}: the LLM call was not seen`);
  // fact delivery runs in waitUntil from the moment the append returns: its requests may start
  // before the LLM call does, but nothing waits for them
  const redis = upstash.redis.log.filter((e) => !BACKGROUND_SCRIPTS.some((sha) => e.body.includes(sha)));
  // Access stats of recalled facts (`/update`) are written in waitUntil, next to the LLM call.
  const vector = upstash.vector.log.filter((e) => !e.path.startsWith("/update/"));
  const all = [...redis, ...vector];
  const inWindow = (from: number, to: number) => (e: RequestLogEntry) => e.at >= from && e.at <= to;
  return {
    total: tEnd - t0,
    before: llm.at - t0,
    llm: llm.doneAt - llm.at,
    after: tEnd - llm.doneAt,
    rtBefore: waves(all.filter(inWindow(t0, llm.at))),
    rtAfter: waves(all.filter(inWindow(llm.doneAt, tEnd))),
    redisBefore: redis.filter(inWindow(t0, llm.at)).length,
    vectorBefore: vector.filter(inWindow(t0, llm.at)).length,
    bgRedis: 0,
    bgVector: 0,
  };
}

/** After the turn's background work had time to finish: what it sent besides the critical path. */
function background(sample: Sample): Sample {
  const redis = upstash.redis.log.length;
  const vector = upstash.vector.log.length;
  return { ...sample, bgRedis: redis - sample.redisBefore - 1, bgVector: vector - sample.vectorBefore };
}

async function scenario(label: string, options: { persist?: boolean; stream?: boolean }): Promise<string> {
  const sessionId = `bench-${label.replace(/\W+/g, "-")}-${Date.now()}`;
  const userId = `bench-user-${Date.now()}`;
  const samples: Sample[] = [];
  for (let i = 0; i < WARMUP + TURNS; i++) {
    const sample = await turn(sessionId, userId, i, options);
    // Let background work (fact delivery, extraction) finish before the next turn's logs start.
    await new Promise((r) => setTimeout(r, 8 * UPSTREAM_DELAY_MS));
    if (i >= WARMUP) samples.push(background(sample));
  }
  const m = (pick: (s: Sample) => number): string => median(samples.map(pick)).toFixed(0);
  return [
    label.padEnd(26),
    String(samples.length).padStart(3),
    m((s) => s.total).padStart(7),
    m((s) => s.before).padStart(11),
    m((s) => s.llm).padStart(6),
    m((s) => s.after).padStart(10),
    `${m((s) => s.rtBefore)} (${m((s) => s.redisBefore)}R+${m((s) => s.vectorBefore)}V)`.padStart(14),
    m((s) => s.rtAfter).padStart(9),
    `${m((s) => s.bgRedis)}R+${m((s) => s.bgVector)}V`.padStart(10),
  ].join("  ");
}

try {
  const rows = [
    await scenario("chat, recall", {}),
    await scenario("chat, recall + persist", { persist: true }),
    await scenario("chat, recall, stream", { stream: true }),
  ];
  console.log(
    `chat turn in workerd (the deploy bundle on its own socket); upstream delay ${UPSTREAM_DELAY_MS} ms per request, LLM ${LLM_DELAY_MS} ms; medians in ms`,
  );
  console.log(
    ["scenario".padEnd(26), "  n", "  total", "before LLM", "   LLM", " after LLM", "  RTs before", "RTs after", "background"].join("  "),
  );
  for (const row of rows) console.log(row);
  console.log("RTs = sequential upstream round trips on the critical path (R/V = Redis/Vector requests before the LLM call;");
  console.log("      background access-stat updates of recalled facts excluded); background = requests per turn in waitUntil");
  console.log("      (fact delivery, extraction), besides those before the LLM call and the reply's append");
} finally {
  await worker.dispose();
  await proxy.close();
  await fake.close();
  await upstash.close();
}
