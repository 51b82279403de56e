/**
 * Context read cost against history length: sessions of 10, 1,000 and 10,000 messages, almost all
 * already folded into the rolling summary (keep 4), read ~200 times each with
 * `MemoryManager.getContext` over upstash-local. Prints latency (median, p95), Redis requests per
 * read and the size of what a read returns; asserts nothing.
 *
 *   npx tsx bench/context-read.ts              (embedded Redis engine)
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/context-read.ts   (forwarded to a real Redis)
 */
import { performance } from "node:perf_hooks";
import { Redis } from "@upstash/redis";
import { ExtractiveSummarizer } from "../src/memory/extractive.ts";
import { MemoryManager } from "../src/memory/manager.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../src/memory/options.ts";
import { loadTokenCounter } from "../src/llm/tokenizer.ts";
import type { SessionRef, StoredMessage } from "../src/memory/types.ts";
import { toStoredMessage } from "../src/memory/window.ts";
import { RedisSessionStore } from "../src/stores/session-store.ts";
import { RedisUserStore } from "../src/stores/user-store.ts";
import { testDeps } from "../test/support/memory-deps.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";

const SIZES = [10, 1_000, 10_000];
const BATCH = 250;
const READS = 200;
const WARMUP = 20;

const upstash = await startUpstashLocal({ redisPort: 0, vectorPort: 0, redisUrl: process.env.REDIS_URL || undefined, vector: { kind: "dense" } });
const redis = new Redis({ url: upstash.redis.url, token: upstash.token, enableTelemetry: false });
const sessions = new RedisSessionStore(redis);
const counter = await loadTokenCounter();
const options = { ...DEFAULT_MEMORY_OPTIONS };
const run = crypto.randomUUID().slice(0, 8);

const deps = testDeps({ tenant: "bench", counter, sessions, users: new RedisUserStore(redis), facts: null, summarizer: new ExtractiveSummarizer(counter), options });
const manager = (ref: SessionRef): MemoryManager => new MemoryManager(deps, { sessionId: ref.sessionId });

function message(i: number): StoredMessage {
  const content =
    i % 2 === 0
      ? `Turn ${i}: I am planning a trip to Lisbon in May, budget ${500 + (i % 40) * 10} euros. Any hotel near Alfama?`
      : `Turn ${i}: Try a guesthouse in Alfama around ${60 + (i % 30)} euros a night; trams 28 and 12 stop nearby.`;
  return toStoredMessage({ id: `m${i}`, role: i % 2 === 0 ? "user" : "assistant", content }, { counter, now: Date.now(), newId: () => `m${i}` });
}

/** Appends `total` messages in batches, compressing after each, so all but `keep` are summarized. */
async function build(ref: SessionRef, total: number): Promise<void> {
  await sessions.append(ref, [toStoredMessage({ id: "sys", role: "system", content: "You are a travel assistant." }, { counter, now: Date.now(), newId: () => "sys" })], {
    ttlSeconds: 3600,
  });
  for (let start = 0; start < total; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, total - start) }, (_, j) => message(start + j));
    await sessions.append(ref, batch, { ttlSeconds: 3600 });
    const outcome = await manager(ref).maybeCompress({ force: true });
    if (!outcome.compressed) throw new Error(`compression did not commit: ${outcome.reason}`);
  }
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

interface Built {
  ref: SessionRef;
  total: number;
  summarized: number;
  window: number;
  archived: number;
  bytes: number;
  samples: number[];
  requests: number;
  contextTokens: number;
}

type Row = Omit<Built, "ref" | "samples"> & { median: number; p95: number };

async function prepare(total: number): Promise<Built> {
  const ref: SessionRef = { tenant: "bench", sessionId: `ctx-${run}-${total}` };
  await build(ref, total);
  const snapshot = await sessions.read(ref);
  const history = await sessions.history(ref, { offset: 0, limit: 1 });
  const summarized = snapshot.summary?.covered ?? 0;
  // what one read carries back, whatever the history length
  const bytes = JSON.stringify(snapshot).length;
  return { ref, total, summarized, window: snapshot.window.length, archived: history.total, bytes, samples: [], requests: 0, contextTokens: 0 };
}

/** One read with a fresh manager, as every request builds one; counts its Redis requests. */
async function readOnce(b: Built): Promise<void> {
  upstash.redis.resetLog();
  const started = performance.now();
  const context = await manager(b.ref).getContext();
  b.samples.push(performance.now() - started);
  b.requests += upstash.redis.log.length;
  b.contextTokens = context.tokens.total;
}

const built: Built[] = [];
for (const total of SIZES) built.push(await prepare(total));
for (let i = 0; i < WARMUP; i++) for (const b of built) await manager(b.ref).getContext();
// Interleaved, so noise (GC, the host) falls on every size alike.
for (let i = 0; i < READS; i++) for (const b of built) await readOnce(b);
const rows: Row[] = built.map((b) => {
  const sorted = [...b.samples].sort((x, y) => x - y);
  return { ...b, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), requests: b.requests / READS };
});
for (const b of built) await sessions.reset(b.ref, { keepSystem: false }); // the rest expires with its TTL
await upstash.close();

const backend = process.env.REDIS_URL ? `real Redis at ${process.env.REDIS_URL} via upstash-local` : "upstash-local embedded engine";
console.log(`Context read (MemoryManager.getContext, no query), ${READS} reads per session after ${WARMUP} warm-up, ${backend}`);
console.log("| messages | summarized | window | archived kept | median ms | p95 ms | Redis requests/read | snapshot bytes | context tokens |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  const cells = [r.total, r.summarized, r.window, r.archived, r.median.toFixed(2), r.p95.toFixed(2), r.requests.toFixed(2), r.bytes, r.contextTokens];
  console.log(`| ${cells.join(" | ")} |`);
}
