/**
 * Append cost against history length, compression disabled: sessions of 10, 1,000 and 10,000
 * unsummarized messages over upstash-local with 20 ms added to every Redis request. Two writes:
 * a plain append (`MemoryManager.add`, answered with stats only) and a chat turn's first append
 * (`addWithContext`, which also returns the bounded snapshot the context is built from), with a
 * budget the 10-message session already fills (300 tokens). Prints the median latency, the bytes
 * moved per append (request and response bodies) and the requests per append, with the growth
 * ratio 10,000 vs 10. Each append adds one message, so the 10-message session ends at ~70.
 *
 *   node --import tsx bench/append.ts
 *   REDIS_URL=redis://127.0.0.1:6379 node --import tsx bench/append.ts
 */
import { performance } from "node:perf_hooks";
import { MemoryManager } from "../src/memory/manager.ts";
import type { SessionRef } from "../src/memory/types.ts";
import { FILLED_BUDGET, SIZES, UPSTREAM_DELAY_MS, median, printRows, startBench, type Row } from "./support/long-session.ts";

const APPENDS = 30;
const WARMUP = 3;

const bench = await startBench("app");
const deps = bench.deps();
const refs: SessionRef[] = [];
for (const total of SIZES) refs.push(await bench.build(total));
let seq = 0;

async function measure(op: (manager: MemoryManager, text: string) => Promise<unknown>): Promise<Row[]> {
  const samples = refs.map(() => ({ times: [] as number[], bytes: 0, requests: 0 }));
  for (let i = 0; i < WARMUP + APPENDS; i++) {
    for (const [j, ref] of refs.entries()) {
      const text = `append ${++seq}: one more question about trams in Lisbon`;
      bench.wire.reset();
      const started = performance.now();
      await op(new MemoryManager(deps, { sessionId: ref.sessionId }), text);
      const elapsed = performance.now() - started;
      if (i < WARMUP) continue;
      const s = samples[j]!;
      s.times.push(elapsed);
      s.bytes += bench.wire.bytesIn + bench.wire.bytesOut;
      s.requests += bench.wire.requests;
    }
  }
  return samples.map((s, j) => ({ messages: SIZES[j]!, median: median(s.times), bytes: s.bytes / APPENDS, requests: s.requests / APPENDS }));
}

const plain = await measure((m, content) => m.add([{ role: "user", content }]));
const turn = await measure((m, content) => m.addWithContext([{ role: "user", content }], { budget: FILLED_BUDGET, countRecalls: false }, { deferCompression: true }));
await bench.close();
const backend = process.env.REDIS_URL ? `real Redis at ${process.env.REDIS_URL} via upstash-local` : "upstash-local embedded engine";
console.log(`Append, compression disabled, ${UPSTREAM_DELAY_MS} ms per Redis request, ${APPENDS} appends per size, ${backend}`);
printRows("plain append (stats only):", plain);
printRows(`chat turn's first append (bounded snapshot, budget ${FILLED_BUDGET} tokens, the 10-message session fills it):`, turn);
