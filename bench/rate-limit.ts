/**
 * What `RATE_LIMIT` adds to a request: the real Worker (its deploy bundle in local workerd,
 * bench/support/workers/bench-worker.ts) against upstash-local with a fixed delay on every upstream request, once without a limit
 * and once with `RATE_LIMIT` set (high enough never to refuse). Per route it prints the median
 * latency of both and the difference, and the Redis requests the limiter added.
 *
 * Reads and chat turns run the check beside their own first Redis request, so they should add
 * ~0 ms; other writes wait for the check first (one round trip more).
 *
 * Run with `npx tsx bench/rate-limit.ts` (REDIS_URL=redis://... forwards to a real Redis). Prints figures only.
 */
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { startBenchWorker } from "./support/workers/bench-worker.ts";
import { startTimingProxy } from "./support/workers/timing-proxy.ts";

const UPSTREAM_DELAY_MS = Number(process.env.BENCH_UPSTREAM_DELAY_MS ?? 20);
const LLM_DELAY_MS = 100;
const WARMUP = 3;
const RUNS = 30;
const API_KEY = "bench-key";

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

const upstash = await startUpstashLocal({
  delayMs: UPSTREAM_DELAY_MS,
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  vector: { kind: "dense" },
});
const fake = await startFakeOpenAI({ port: 0 });
fake.setMode({ mode: "fixed", text: "Noted.", delayMs: LLM_DELAY_MS, chunkDelayMs: 2 });
const proxy = await startTimingProxy(fake);

function startWorker(rateLimit: string | null) {
  return startBenchWorker({
    ...upstash.env,
    OPENAI_BASE_URL: `${proxy.url}/v1`,
    OPENAI_API_KEY: "bench",
    API_KEYS: `bench:${API_KEY}`,
    MEMORY_MAX_TOKENS: "1000000",
    FACT_EXTRACTION: "off",
    ...(rateLimit ? { RATE_LIMIT: rateLimit } : {}),
  });
}

interface Route {
  label: string;
  send(base: URL, sessionId: string, i: number): Promise<Response>;
}

const headers = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
const ROUTES: Route[] = [
  { label: "GET context (read)", send: (base, sid) => fetch(new URL(`/v1/sessions/${sid}/context?userId=bench-user`, base), { headers }) },
  {
    label: "POST messages (write)",
    send: (base, sid, i) =>
      fetch(new URL(`/v1/sessions/${sid}/messages`, base), {
        method: "POST",
        headers,
        body: JSON.stringify({ userId: "bench-user", messages: [{ id: `m${i}`, role: "user", content: `note ${i}` }] }),
      }),
  },
  {
    label: "POST chat (turn, LLM 100 ms)",
    send: (base, sid, i) =>
      fetch(new URL(`/v1/sessions/${sid}/chat`, base), {
        method: "POST",
        headers,
        body: JSON.stringify({ userId: "bench-user", message: `question ${i}`, messageId: `q${i}` }),
      }),
  },
];

interface Figures {
  ms: number;
  /** Chat only: until the LLM call arrived. */
  beforeLlm: number;
  redis: number;
}

async function measure(base: URL, route: Route, tag: string): Promise<Figures> {
  const sid = `bench-rl-${tag}-${route.label.replace(/\W+/g, "-")}-${Date.now()}`;
  const times: number[] = [];
  const before: number[] = [];
  const redis: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    upstash.redis.resetLog();
    const calls = proxy.calls.length;
    const t0 = Date.now();
    const res = await route.send(base, sid, i);
    await res.text();
    const took = Date.now() - t0;
    const llm = proxy.calls.slice(calls).find((c) => c.body.includes(`question ${i}`));
    if (res.status >= 300) throw new Error(`${route.label}: HTTP ${res.status}`);
    // Background work (compression, learning) is off; let waitUntil settle before the count.
    await new Promise((r) => setTimeout(r, 3 * UPSTREAM_DELAY_MS));
    if (i >= WARMUP) {
      times.push(took);
      if (llm) before.push(llm.at - t0);
      redis.push(upstash.redis.log.length);
    }
  }
  return { ms: median(times), beforeLlm: before.length > 0 ? median(before) : NaN, redis: median(redis) };
}

const results = new Map<string, { off: Figures; on: Figures }>();
try {
  for (const [tag, limit] of [
    ["off", null],
    ["on", "1000000/60s"],
  ] as const) {
    const worker = await startWorker(limit);
    const { base } = worker;
    try {
      for (const route of ROUTES) {
        const figures = await measure(new URL(base), route, tag);
        const row = results.get(route.label) ?? { off: figures, on: figures };
        row[tag] = figures;
        results.set(route.label, row);
      }
    } finally {
      await worker.dispose();
    }
  }
  console.log(`RATE_LIMIT cost in workerd; upstream delay ${UPSTREAM_DELAY_MS} ms per request; median of ${RUNS} requests per route`);
  console.log(["route".padEnd(30), "   off ms", "    on ms", "  added ms", "Redis req off/on"].join("  "));
  const row = (label: string, off: number, on: number, requests: string) =>
    console.log(
      [
        label.padEnd(30),
        off.toFixed(1).padStart(9),
        on.toFixed(1).padStart(9),
        (on - off).toFixed(1).padStart(10),
        requests.padStart(16),
      ].join("  "),
    );
  for (const [label, { off, on }] of results) {
    row(label, off.ms, on.ms, `${off.redis}/${on.redis}`);
    if (Number.isFinite(on.beforeLlm)) row("  of it before the LLM call", off.beforeLlm, on.beforeLlm, "");
  }
} finally {
  await proxy.close();
  await fake.close();
  await upstash.close();
}
