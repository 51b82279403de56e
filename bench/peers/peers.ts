/**
 * Side by side with what users would pick instead: Agent Memory (the real Worker in local workerd,
 * through its own port), @upstash/rag-chat and LangChain.js's Upstash Redis chat history (both in
 * this process), against the same upstash-local emulators with the same delay on every upstream
 * request and the same fake OpenAI-compatible LLM behind a timing proxy.
 *
 * The index is hybrid (dense + BM25), Agent Memory's default `VECTOR_INDEX`; its dense model is
 * the emulator's hashing model (instant, as `startUpstashLocal` serves a hybrid index), or the dev
 * stack's sentence model with PEERS_DENSE_MODEL=USE_LITE (about 20 ms of CPU per new text here).
 * One user has 40 facts (imported through Agent Memory's API, and upserted with the same texts
 * into a namespace LangChain's arm queries). Every question is new (a turn marker in it), so no
 * embedding comes from the emulator's cache.
 *
 * Figures (median ms of 30 after 3 warm-ups, interleaved; round trips = upstream requests in
 * sequence):
 * - context before the LLM call with recall, on sessions of 10 and 1,000 messages of that user:
 *   Agent Memory's `GET /context?query=&userId=`; rag-chat's retrieval and history read as its
 *   `chat()` does them; LangChain's `getMessages()` and a vector query for the question in
 *   parallel (`Promise.all`), as an app would add memory to it; the relay Worker the same.
 * - the same without recall, 10 messages (no question: Agent Memory and LangChain read history only).
 * - chat turn with recall, from the request to the moment the LLM request arrives (10 messages).
 * - append a user + assistant pair.
 * Beside them: Agent Memory's query parts per recall (the queries of its Vector batch, from the
 * emulator's request log) and the dense embeddings the emulator computed per recall.
 *
 * Installed on its own so the repository's install carries none of this:
 *   cd bench/peers && npm ci && cd ../.. && node --import tsx bench/peers/peers.ts
 * PEERS_DELAY_MS sets the upstream delay (default 20), PEERS_DENSE_MODEL the dense model
 * (HASHING_WEIGHTED, USE_LITE). PEERS_DOMAIN=1 adds a column for the context row without recall:
 * Agent Memory's context read with no HTTP layer (bench/peers/domain-worker.ts), to split its
 * time over the relay Worker into the HTTP layer and the read; it runs a third workerd, which
 * shares the machine with the others, so its run is a diagnostic beside the headline one.
 */
import { UpstashRedisChatMessageHistory } from "@langchain/community/stores/message/upstash_redis";
import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { RAGChat, custom } from "@upstash/rag-chat";
import { Redis } from "@upstash/redis";
import { Index } from "@upstash/vector";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { isFollowUp } from "../../src/memory/facts/recall-query.ts";
import { startFakeOpenAI } from "../../test/support/fake-openai.ts";
import { startUpstashLocal } from "../../tools/upstash-local/index.ts";
import type { RequestLogEntry } from "../../tools/upstash-local/listener.ts";
import { parseDenseModel } from "../../tools/upstash-local/vector/config.ts";
import { embeddingStats } from "../../tools/upstash-local/vector/embedding-cache.ts";
import type { Dataset } from "../data/recall/schema.ts";
import { startBenchWorker } from "../support/bench-worker.ts";
import { asLearned } from "../support/recall-parts.ts";
import { startTimingProxy } from "../support/timing-proxy.ts";

const DELAY_MS = Number(process.env.PEERS_DELAY_MS ?? 20);
/** The namespace of the facts LangChain's arm and the relay Worker query. */
const LC_FACTS = "lc-facts";
const WARMUP = 3;
/** Samples per figure; PEERS_RUNS lowers it for a quick check of the bench itself. */
const RUNS = Number(process.env.PEERS_RUNS ?? 30);
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

const DENSE_MODEL = parseDenseModel(process.env.PEERS_DENSE_MODEL ?? "HASHING_WEIGHTED", "PEERS_DENSE_MODEL");
const upstash = await startUpstashLocal({
  delayMs: DELAY_MS,
  redisPort: 0,
  vectorPort: 0,
  redisUrl: process.env.REDIS_URL || undefined,
  vector: { kind: "hybrid", denseModel: DENSE_MODEL },
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
};
const worker = await startBenchWorker(amVars);
const { base } = worker;
const domain = DOMAIN ? await startBenchWorker(amVars, { entrypoint: "bench/peers/domain-worker.ts" }) : null;
const relay = await startBenchWorker(
  { ...upstash.env, OPENAI_BASE_URL: `${proxy.url}/v1`, OPENAI_API_KEY: "bench", FACTS_NAMESPACE: LC_FACTS },
  { entrypoint: "bench/peers/relay-worker.ts" },
);
const redis = new Redis({ url: upstash.env.UPSTASH_REDIS_REST_URL ?? "", token: upstash.token, enableTelemetry: false });
const index = new Index({ url: upstash.env.UPSTASH_VECTOR_REST_URL ?? "", token: upstash.token, enableTelemetry: false });
const rag = new RAGChat({ redis, vector: index, model: custom("bench-model", { baseUrl: `${proxy.url}/v1`, apiKey: "bench" }) });
const lcModel = new ChatOpenAI({ model: "bench-model", apiKey: "bench", configuration: { baseURL: `${proxy.url}/v1` }, maxRetries: 0 });

interface Measured {
  ms: number;
  trips: number;
  /** Queries in the span's Vector query requests (a batch counts each), and dense embeddings the emulator computed. */
  parts: number;
  embeddings: number;
}

/** Queries in a logged Vector query request: one, or the length of its batch (the log keeps 2 KB of the body). */
function queryParts(entry: RequestLogEntry): number {
  if (!entry.path.startsWith("/query")) return 0;
  return Math.max(1, entry.body.match(/"topK"/g)?.length ?? 0);
}

/** Runs `op` with the emulators' logs cleared; `until` (ms since epoch) ends the span when the op marks one. */
// biome-ignore lint/suspicious/noConfusingVoidType: an op returns nothing, or the end of its span
async function measure(op: () => Promise<number | void>): Promise<Measured> {
  upstash.redis.resetLog();
  upstash.vector.resetLog();
  const computed = embeddingStats().computed;
  const t0 = Date.now();
  const start = performance.now();
  const marked = await op();
  const end = typeof marked === "number" ? marked : Date.now();
  const ms = typeof marked === "number" ? marked - t0 : performance.now() - start;
  const inSpan = (e: RequestLogEntry) => e.at >= t0 && e.at <= end;
  const vector = upstash.vector.log.filter(inSpan);
  return {
    ms,
    trips: waves([...upstash.redis.log.filter(inSpan), ...vector]),
    parts: vector.reduce((n, e) => n + queryParts(e), 0),
    embeddings: embeddingStats().computed - computed,
  };
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
/** The user whose sessions and facts the recall rows read: a persona of the recall dataset, half its facts as the learner words them. */
const USER = `ada-${run}`;
const persona = JSON.parse(readFileSync(new URL("../data/recall/dataset.json", import.meta.url), "utf8")) as Dataset;
const FACTS = persona.facts
  .filter((f) => f.persona === "emma")
  .slice(0, 40)
  .map((f, i) => ({ text: i % 2 === 0 ? f.text : asLearned(f.text), type: f.type }));
/** The persona's questions; none a follow-up, whose recall would wait for the session read in a chat turn. */
const QUESTIONS = persona.queries.filter((q) => q.persona === "emma" && !isFollowUp(`turn 0: ${q.text}`)).map((q) => q.text);
/** A new question each turn: a marker (it also finds the turn's LLM call) and one of the persona's questions. */
const question = (marker: string, i: number): string => `${marker}: ${QUESTIONS[i % QUESTIONS.length]}`;
await am(`/v1/users/${USER}/facts/import`, { method: "POST", body: JSON.stringify({ facts: FACTS }) });
// LangChain's arm (and the relay Worker) query their own namespace of the same index; rag-chat reads the default one
const facts = FACTS.map((f, i) => ({ id: `fact-${i}`, data: f.text, metadata: { text: f.text } }));
await index.upsert(facts, { namespace: LC_FACTS });
await index.upsert(facts);
/** LangChain's history read and a vector query for the question in parallel, as an app adds memory to it. */
const lcRead = (history: UpstashRedisChatMessageHistory, data: string) =>
  Promise.all([history.getMessages(), index.query({ data, topK: 10, includeMetadata: true }, { namespace: LC_FACTS })]);

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
      body: JSON.stringify({
        userId: USER,
        messages: batch.map((i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: text(i) })),
      }),
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
  /** Whether Agent Memory recalls in this row (its query parts and embeddings are printed). */
  recall: boolean;
}

/** What rag-chat's chat() reads before calling the LLM, in its order. */
async function ragRead(session: string, text: string): Promise<void> {
  const options = { sessionId: session, similarityThreshold: 0.5, topK: 5, historyLength: 5, namespace: "" };
  await rag.context._getContext(options as never, text)(session);
  await rag.history.getMessages({ sessionId: session, amount: 5 });
}

const rows: Row[] = [];
for (const size of [10, 1_000]) {
  const s = sessions.get(size)!;
  rows.push({
    label: `context before the LLM call with recall (40 facts), ${size.toLocaleString("en")} messages`,
    recall: true,
    ops: [
      (i) =>
        measure(() =>
          am(`/v1/sessions/${s.am}/context?query=${encodeURIComponent(question(`am-${size}-${run}-${i}`, i))}&userId=${USER}`).then(
            () => undefined,
          ),
        ),
      (i) => measure(() => ragRead(s.rag, question(`rag-${size}-${run}-${i}`, i))),
      (i) => measure(() => lcRead(s.lc, question(`lc-${size}-${run}-${i}`, i)).then(() => undefined)),
      (i) => measure(() => relayed(`/read?key=${s.lcKey}&query=${encodeURIComponent(question(`relay-${size}-${run}-${i}`, i))}`)),
    ],
  });
}
const s10 = sessions.get(10)!;
rows.push({
  label: "context before the LLM call without recall, 10 messages",
  recall: false,
  ops: [
    () => measure(() => am(`/v1/sessions/${s10.am}/context`).then(() => undefined)),
    (i) => measure(() => ragRead(s10.rag, `what next ${i}?`)),
    () => measure(() => s10.lc.getMessages().then(() => undefined)),
    () => measure(() => relayed(`/read?key=${s10.lcKey}`)),
    ...(domain ? [() => measure(() => ok(new URL(`/context/${s10.am}`, domain.base)).then(() => undefined))] : []),
  ],
});
rows.push({
  label: "chat turn with recall: request -> LLM request arrives, 10 messages",
  recall: true,
  ops: [
    (i) =>
      measure(async () => {
        const marker = `am-turn-${run}-${i}`;
        await am(`/v1/sessions/${s10.am}/chat`, {
          method: "POST",
          body: JSON.stringify({ message: question(marker, i), userId: USER, persist: false }),
        });
        return llmArrival(marker);
      }),
    (i) =>
      measure(async () => {
        const marker = `rag-turn-${run}-${i}`;
        await rag.chat(question(marker, i), { sessionId: s10.rag, streaming: false });
        return llmArrival(marker);
      }),
    (i) =>
      measure(async () => {
        const marker = `lc-turn-${run}-${i}`;
        const [history, found] = await lcRead(s10.lc, question(marker, i));
        const memory = found.map((r) => String(r.metadata?.text ?? "")).join("\n");
        await lcModel.invoke([
          new SystemMessage(`What you know about the user:\n${memory}`),
          ...history,
          new HumanMessage(question(marker, i)),
        ]);
        return llmArrival(marker);
      }),
    (i) =>
      measure(async () => {
        const marker = `relay-turn-${run}-${i}`;
        await relayed(`/chat?key=${s10.lcKey}&query=1`, { method: "POST", body: question(marker, i) });
        return llmArrival(marker);
      }),
  ],
});
rows.push({
  label: "append a user + assistant pair",
  recall: false,
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
    const mean = (ms: Measured[], f: (m: Measured) => number) => (ms.reduce((n, m) => n + f(m), 0) / Math.max(1, ms.length)).toFixed(2);
    const own = samples[0] ?? [];
    const lc = samples[2] ?? [];
    const parts = row.recall ? `${mean(own, (m) => m.parts)} / ${mean(lc, (m) => m.parts)}` : "-";
    const embedded = row.recall ? `${mean(own, (m) => m.embeddings)} / ${mean(lc, (m) => m.embeddings)}` : "-";
    results.push(`| ${row.label} | ${cells.join(" | ")} | ${parts} | ${embedded} |`);
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
  `${DELAY_MS} ms per upstream request (floor = ${DELAY_MS} ms per round trip); median ms of ${RUNS} after ${WARMUP}, interleaved; (round trips); hybrid index, dense model ${DENSE_MODEL}; load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
console.log(
  `| figure | Agent Memory (Worker, own port) | @upstash/rag-chat 2.0.3 | LangChain.js Upstash history 1.1.29 (in-process) | a Worker that only relays LangChain's commands (own port) |${domain ? " Agent Memory's read with no HTTP layer (own port) |" : ""} query parts per recall, Agent Memory / LangChain | embeddings computed per recall, Agent Memory / LangChain |`,
);
console.log(`|---|---|---|---|---|${domain ? "---|" : ""}---|---|`);
for (const line of results) console.log(line);
