/**
 * Side by side with what users would pick instead: Agent Memory (the real Worker in local workerd,
 * through its own port), @upstash/rag-chat and LangChain.js's Upstash Redis chat history (both in
 * this process), against the same upstash-local emulators with the same delay on every upstream
 * request and the same fake OpenAI-compatible LLM behind a timing proxy.
 * The index is hybrid (dense + BM25), Agent Memory's default `VECTOR_INDEX`; its dense model is
 * the emulator's hashing model (instant, as `startUpstashLocal` serves a hybrid index), or the dev
 * stack's sentence model with PEERS_DENSE_MODEL=USE_LITE (about 20 ms of CPU per new text here).
 * One user has 40 facts (imported through Agent Memory's API, and upserted with the same texts
 * into a namespace LangChain's arm queries). Every question is new (a turn marker in it), so no
 * embedding comes from the emulator's cache.
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
import { loadavg } from "node:os";
import { startFakeOpenAI } from "../../test/support/fake-openai.ts";
import { startUpstashLocal } from "../../tools/upstash-local/index.ts";
import { parseDenseModel } from "../../tools/upstash-local/vector/config.ts";
import { startBenchWorker } from "../support/workers/bench-worker.ts";
import { FACTS, type Measured, measurer, ok, question, tableRow, text } from "./peers-support.ts";
import { startTimingProxy } from "../support/workers/timing-proxy.ts";

const DELAY_MS = Number(process.env.PEERS_DELAY_MS ?? 20);
/** The namespace of the facts LangChain's arm and the relay Worker query. */
const LC_FACTS = "lc-facts";
const WARMUP = 3;
/** Samples per figure; PEERS_RUNS lowers it for a quick check of the bench itself. */
const RUNS = Number(process.env.PEERS_RUNS ?? 30);
const API_KEY = "bench-key";
const AUTH = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
const REPLY = "Noted, thanks for telling me.";

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

const measure = measurer(upstash, DELAY_MS);

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
/** The user whose sessions and facts the recall rows read. */
const USER = `ada-${run}`;
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
    results.push(tableRow(row.label, samples, { pad: domain !== null, recall: row.recall }));
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
