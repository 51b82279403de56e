/**
 * Side by side with what users would pick instead: Agent Memory (the real Worker in local workerd,
 * through its own port), @upstash/rag-chat and LangChain.js's Upstash Redis chat history (both in
 * this process), against the same upstash-local emulators with the same delay on every upstream
 * request and the same fake OpenAI-compatible LLM behind a timing proxy.
 *
 * Figures (median ms of 30 after 3 warm-ups, the three run interleaved; round trips = upstream
 * requests in sequence):
 * - context before the LLM call, on sessions of 10 and 1,000 messages: Agent Memory's
 *   `GET /context`; rag-chat's retrieval and history read as its `chat()` does them; LangChain's
 *   `getMessages()`.
 * - chat turn, from the request to the moment the LLM request arrives (10 messages).
 * - append a user + assistant pair.
 *
 * Installed on its own so the repository's install carries none of this:
 *   cd bench/peers && npm ci && cd ../.. && node --import tsx bench/peers/peers.ts
 * PEERS_DELAY_MS sets the upstream delay (default 20). PEERS_DOMAIN=1 adds a column for the context
 * rows: Agent Memory's context read with no HTTP layer (bench/peers/domain-worker.ts), to split its
 * time over the relay Worker into the HTTP layer and the read; it runs a third workerd, which
 * shares the machine with the others, so its run is a diagnostic beside the headline one.
 */
import { UpstashRedisChatMessageHistory } from "@langchain/community/stores/message/upstash_redis";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { RAGChat, custom } from "@upstash/rag-chat";
import { Redis } from "@upstash/redis";
import { Index } from "@upstash/vector";
import { startFakeOpenAI } from "../../test/support/fake-openai.ts";
import { startUpstashLocal } from "../../tools/upstash-local/index.ts";
import type { RequestLogEntry } from "../../tools/upstash-local/listener.ts";
import { startBenchWorker } from "../support/workers/bench-worker.ts";
import { startTimingProxy } from "../support/workers/timing-proxy.ts";

const DELAY_MS = Number(process.env.PEERS_DELAY_MS ?? 20);
const WARMUP = 3;
const RUNS = 30;
const API_KEY = "bench-key";
const AUTH = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
const REPLY = "Noted, thanks for telling me.";

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

/** Sequential round trips: a request that starts within half the delay of the wave's first joins it. */
function waves(entries: readonly RequestLogEntry[]): number {
  let count = 0;
  let start = Number.NEGATIVE_INFINITY;
  for (const at of entries.map((e) => e.at).sort((a, b) => a - b)) {
    if (at - start >= Math.max(DELAY_MS, 2) / 2) {
      count += 1;
      start = at;
    }
  }
  return count;
}

const text = (i: number): string =>
  i % 2 === 0
    ? `Turn ${i}: I am planning a trip to Lisbon in May, budget ${500 + (i % 40) * 10} euros. Any hotel near Alfama?`
    : `Turn ${i}: Try a guesthouse in Alfama around ${60 + (i % 30)} euros a night; trams 28 and 12 stop nearby.`;

const upstash = await startUpstashLocal({
  delayMs: DELAY_MS,
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  vector: { kind: "dense" },
});
const fake = await startFakeOpenAI({ port: 0 });
fake.setMode({ mode: "fixed", text: REPLY });
const proxy = await startTimingProxy(fake);
const DOMAIN = process.env.PEERS_DOMAIN === "1";
const amVars = {
  ...upstash.env,
  API_KEYS: `bench:${API_KEY}`,
  OPENAI_BASE_URL: `${proxy.url}/v1`,
  OPENAI_API_KEY: "bench",
  MEMORY_MAX_TOKENS: "1000000",
  FACT_EXTRACTION: "off",
  // the emulator's index is dense (rag-chat's kind); the Worker's default is hybrid
  VECTOR_INDEX: "dense",
};
const worker = await startBenchWorker(amVars);
const { base } = worker;
const domain = DOMAIN ? await startBenchWorker(amVars, { entrypoint: "bench/peers/domain-worker.ts" }) : null;
const relay = await startBenchWorker(
  { ...upstash.env, OPENAI_BASE_URL: `${proxy.url}/v1`, OPENAI_API_KEY: "bench" },
  { entrypoint: "bench/peers/relay-worker.ts" },
);
const redis = new Redis({ url: upstash.env.UPSTASH_REDIS_REST_URL ?? "", token: upstash.token, enableTelemetry: false });
const index = new Index({ url: upstash.env.UPSTASH_VECTOR_REST_URL ?? "", token: upstash.token, enableTelemetry: false });
const rag = new RAGChat({ redis, vector: index, model: custom("bench-model", { baseUrl: `${proxy.url}/v1`, apiKey: "bench" }) });
const lcModel = new ChatOpenAI({ model: "bench-model", apiKey: "bench", configuration: { baseURL: `${proxy.url}/v1` }, maxRetries: 0 });

interface Measured {
  ms: number;
  trips: number;
}

/** Runs `op` with the emulators' logs cleared; `until` (ms since epoch) ends the span when the op marks one. */
// biome-ignore lint/suspicious/noConfusingVoidType: an op returns nothing, or the end of its span
async function measure(op: () => Promise<number | void>): Promise<Measured> {
  upstash.redis.resetLog();
  upstash.vector.resetLog();
  const t0 = Date.now();
  const start = performance.now();
  const marked = await op();
  const end = typeof marked === "number" ? marked : Date.now();
  const ms = typeof marked === "number" ? marked - t0 : performance.now() - start;
  const inSpan = (e: RequestLogEntry) => e.at >= t0 && e.at <= end;
  return { ms, trips: waves([...upstash.redis.log.filter(inSpan), ...upstash.vector.log.filter(inSpan)]) };
}

/** The body of a request that must succeed. */
async function ok(url: URL, init: RequestInit = {}): Promise<string> {
  const res = await fetch(url, init);
  const body = await res.text();
  if (res.status >= 300) throw new Error(`${url.host}${url.pathname}: HTTP ${res.status} ${body.slice(0, 200)}`);
  return body;
}

const am = (path: string, init: RequestInit = {}): Promise<string> =>
  ok(new URL(path, base), { ...init, headers: { ...AUTH, ...(init.headers ?? {}) } });

/** A request to the relay Worker (the local workerd floor). */
const relayed = (path: string, init: RequestInit = {}): Promise<void> => ok(new URL(path, relay.base), init).then(() => undefined);

/** When the LLM request carrying `marker` arrived at the proxy. */
function llmArrival(marker: string): number {
  const call = proxy.calls.find((c) => c.body.includes(marker));
  if (!call) throw new Error(`the LLM call for "${marker}" was not seen`);
  return call.at;
}

const run = Date.now().toString(36);
const sessions = new Map<number, { am: string; rag: string; lc: UpstashRedisChatMessageHistory; lcKey: string }>();
for (const size of [10, 1_000]) {
  // LangChain's history is a Redis list under its session id, which the relay Worker reads as a key
  const lcKey = `lc-${run}-${size}`;
  const s = {
    am: `am-${run}-${size}`,
    rag: `rag-${run}-${size}`,
    lc: new UpstashRedisChatMessageHistory({ sessionId: lcKey, client: redis }),
    lcKey,
  };
  for (let start = 0; start < size; start += 100) {
    const batch = Array.from({ length: Math.min(100, size - start) }, (_, j) => start + j);
    await am(`/v1/sessions/${s.am}/messages`, {
      method: "POST",
      body: JSON.stringify({ messages: batch.map((i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: text(i) })) }),
    });
    await s.lc.addMessages(batch.map((i) => (i % 2 === 0 ? new HumanMessage(text(i)) : new AIMessage(text(i)))));
    for (let k = 0; k < batch.length; k += 25) {
      await Promise.all(
        batch
          .slice(k, k + 25)
          .map((i) =>
            rag.history.addMessage({ message: { content: text(i), role: i % 2 === 0 ? "user" : "assistant" }, sessionId: s.rag }),
          ),
      );
    }
  }
  sessions.set(size, s);
}

type Op = (i: number) => Promise<Measured>;
interface Row {
  label: string;
  /** Agent Memory, rag-chat, LangChain, the relay Worker, and with PEERS_DOMAIN=1 the domain-only Worker where it applies. */
  ops: Op[];
}

const rows: Row[] = [];
for (const size of [10, 1_000]) {
  const s = sessions.get(size)!;
  rows.push({
    label: `context before the LLM call, ${size.toLocaleString("en")} messages`,
    ops: [
      () => measure(() => am(`/v1/sessions/${s.am}/context`).then(() => undefined)),
      (i) =>
        measure(async () => {
          // what rag-chat's chat() reads before calling the LLM, in its order
          const options = { sessionId: s.rag, similarityThreshold: 0.5, topK: 5, historyLength: 5, namespace: "" };
          await rag.context._getContext(options as never, `what next ${i}?`)(s.rag);
          await rag.history.getMessages({ sessionId: s.rag, amount: 5 });
        }),
      () => measure(() => s.lc.getMessages().then(() => undefined)),
      () => measure(() => relayed(`/read?key=${s.lcKey}`)),
      ...(domain ? [() => measure(() => ok(new URL(`/context/${s.am}`, domain.base)).then(() => undefined))] : []),
    ],
  });
}
const s10 = sessions.get(10)!;
rows.push({
  label: "chat turn: request -> LLM request arrives, 10 messages",
  ops: [
    (i) =>
      measure(async () => {
        const marker = `am-turn-${run}-${i}`;
        await am(`/v1/sessions/${s10.am}/chat`, {
          method: "POST",
          body: JSON.stringify({ message: `${marker}: what next?`, persist: false }),
        });
        return llmArrival(marker);
      }),
    (i) =>
      measure(async () => {
        const marker = `rag-turn-${run}-${i}`;
        await rag.chat(`${marker}: what next?`, { sessionId: s10.rag, streaming: false });
        return llmArrival(marker);
      }),
    (i) =>
      measure(async () => {
        const marker = `lc-turn-${run}-${i}`;
        const history = await s10.lc.getMessages();
        await lcModel.invoke([...history, new HumanMessage(`${marker}: what next?`)]);
        return llmArrival(marker);
      }),
    (i) =>
      measure(async () => {
        const marker = `relay-turn-${run}-${i}`;
        await relayed(`/chat?key=${s10.lcKey}`, { method: "POST", body: `${marker}: what next?` });
        return llmArrival(marker);
      }),
  ],
});
rows.push({
  label: "append a user + assistant pair",
  ops: [
    (i) =>
      measure(() =>
        am(`/v1/sessions/${s10.am}/messages`, {
          method: "POST",
          body: JSON.stringify({
            messages: [
              { role: "user", content: `q ${i}` },
              { role: "assistant", content: `a ${i}` },
            ],
          }),
        }).then(() => undefined),
      ),
    (i) =>
      measure(async () => {
        await rag.history.addMessage({ message: { content: `q ${i}`, role: "user" }, sessionId: s10.rag });
        await rag.history.addMessage({ message: { content: `a ${i}`, role: "ai" }, sessionId: s10.rag });
      }),
    (i) => measure(() => s10.lc.addMessages([new HumanMessage(`q ${i}`), new AIMessage(`a ${i}`)])),
    (i) =>
      measure(() =>
        relayed(`/append?key=relay-${run}`, {
          method: "POST",
          body: JSON.stringify(
            [`q ${i}`, `a ${i}`].map((content, k) => JSON.stringify({ type: k === 0 ? "human" : "ai", data: { content } })),
          ),
        }),
      ),
  ],
});

const results: string[] = [];
try {
  for (const row of rows) {
    const samples: Measured[][] = row.ops.map(() => []);
    for (let i = 0; i < WARMUP + RUNS; i++) {
      // interleaved, the order rotating, so drift and load fall on all alike
      for (let k = 0; k < row.ops.length; k++) {
        const which = (i + k) % row.ops.length;
        const m = await row.ops[which]!(i);
        if (i >= WARMUP) samples[which]!.push(m);
      }
    }
    const cell = (ms: Measured[]) => `${median(ms.map((m) => m.ms)).toFixed(1)} (${median(ms.map((m) => m.trips))})`;
    const cells = samples.map(cell);
    if (domain && cells.length === 4) cells.push("-");
    results.push(`| ${row.label} | ${cells.join(" | ")} |`);
    console.error(results.at(-1)); // as it comes, so a long run shows progress
  }
} finally {
  await worker.dispose();
  await relay.dispose();
  await domain?.dispose();
  await proxy.close();
  await fake.close();
  await upstash.close();
}
console.log(
  `${DELAY_MS} ms per upstream request (floor = ${DELAY_MS} ms per round trip); median ms of ${RUNS} after ${WARMUP}, interleaved; (round trips)`,
);
console.log(
  `| figure | Agent Memory (Worker, own port) | @upstash/rag-chat 2.0.3 | LangChain.js Upstash history 1.1.29 (in-process) | a Worker that only relays LangChain's commands (own port) |${domain ? " Agent Memory's read with no HTTP layer (own port) |" : ""}`,
);
console.log(`|---|---|---|---|---|${domain ? "---|" : ""}`);
for (const line of results) console.log(line);
