/**
 * Query latency of the offline Vector emulator: 10,000 random 384-dim vectors, ~500 topK-10 queries.
 * Run with `npx tsx bench/vector-query.ts`. Prints figures only.
 */
import { performance } from "node:perf_hooks";
import { Index } from "@upstash/vector";
import { VectorStore } from "../tools/upstash-local/vector/store.ts";
import { startVectorEmulator } from "../tools/upstash-local/vector/standalone.ts";

const DIM = 384;
const COUNT = 10_000;
const BATCH = 1000;
const QUERIES = 500;
const TOP_K = 10;

let seed = 42;
function rand(): number {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
}
const randomVector = (): number[] => Array.from({ length: DIM }, rand);

function summary(label: string, ms: number[]): void {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  console.log(
    `${label.padEnd(34)} n=${sorted.length}  median ${at(0.5).toFixed(2)} ms  p99 ${at(0.99).toFixed(2)} ms  mean ${mean.toFixed(2)} ms`,
  );
}

const emu = await startVectorEmulator({ index: { kind: "dense", dimension: DIM } });
const index = new Index({ url: emu.url, token: emu.token });
const vectors = Array.from({ length: COUNT }, randomVector);

const upsertMs: number[] = [];
for (let start = 0; start < COUNT; start += BATCH) {
  const batch = vectors.slice(start, start + BATCH).map((vector, j) => ({
    id: `vec-${start + j}`,
    vector,
    metadata: { i: start + j, group: (start + j) % 7 },
  }));
  const t0 = performance.now();
  await index.upsert(batch);
  upsertMs.push(performance.now() - t0);
}
console.log(`vectors: ${(await index.info()).vectorCount} x ${DIM} dims (COSINE)`);
summary(`upsert batch of ${BATCH} (client)`, upsertMs);

const queries = Array.from({ length: QUERIES }, randomVector);

// Warm-up so JIT compilation does not count.
for (const vector of queries.slice(0, 20)) await index.query({ vector, topK: TOP_K, includeMetadata: true });

const clientMs: number[] = [];
for (const vector of queries) {
  const t0 = performance.now();
  await index.query({ vector, topK: TOP_K, includeMetadata: true });
  clientMs.push(performance.now() - t0);
}
summary("query (client-observed, HTTP)", clientMs);

const filteredMs: number[] = [];
for (const vector of queries) {
  const t0 = performance.now();
  await index.query({ vector, topK: TOP_K, includeMetadata: true, filter: "group = 3 AND i >= 100" });
  filteredMs.push(performance.now() - t0);
}
summary("query with filter (client, HTTP)", filteredMs);

// In-process: the REST handler without the HTTP hop (JSON parse + search + render).
const handlerMs: number[] = [];
for (const vector of queries) {
  const body = Buffer.from(JSON.stringify({ vector, topK: TOP_K, includeMetadata: true }));
  const t0 = performance.now();
  const res = await emu.service.handler({
    method: "POST",
    path: "/query",
    query: new URLSearchParams(),
    headers: { authorization: `Bearer ${emu.token}` },
    body,
  });
  handlerMs.push(performance.now() - t0);
  if (res.status !== 200) throw new Error(`handler answered ${res.status}`);
}
summary("query (in-process handler)", handlerMs);

// In-process: the brute-force search alone, on a store with the same vectors.
const store = new VectorStore(DIM);
const ns = store.ensure("");
vectors.forEach((vector, i) => {
  ns.upsert(`vec-${i}`, { vector });
});
const searchMs: number[] = [];
for (const vector of queries) {
  const q = Float64Array.from(vector);
  const t0 = performance.now();
  ns.search(q, "COSINE", TOP_K);
  searchMs.push(performance.now() - t0);
}
summary("store search only", searchMs);

await emu.close();
