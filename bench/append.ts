/**
 * Append cost against history length, compression disabled: sessions of 10, 1,000 and 10,000
 * unsummarized messages over upstash-local with 20 ms added to every Redis request. Two writes:
 * a plain append (`SessionMemory.add`, answered with stats only) and a chat turn's first append
 * (`addWithContext`, which also returns the bounded snapshot the context is built from), with a
 * budget the 10-message session already fills (300 tokens). Prints the median latency, the bytes
 * moved per append (request and response bodies) and the requests per append, with the growth
 * ratio 10,000 vs 10. Each append adds one message, so the 10-message session ends at ~70.
 *
 *   node --import tsx bench/append.ts
 *   REDIS_URL=redis://127.0.0.1:6379 node --import tsx bench/append.ts
 */
import { SessionMemory } from "../src/memory/sessions/session-memory.ts";
import type { SessionRef } from "../src/memory/model.ts";
import {
  FILLED_BUDGET,
  SIZES,
  UPSTREAM_DELAY_MS,
  measureSessions,
  printRows,
  startBench,
  type Row,
} from "./support/upstash/long-session.ts";

const APPENDS = 30;
const WARMUP = 3;

const bench = await startBench("app");
const deps = bench.deps();
const refs: SessionRef[] = [];
for (const total of SIZES) refs.push(await bench.build(total));
let seq = 0;

const measure = (op: (manager: SessionMemory, text: string) => Promise<unknown>): Promise<Row[]> =>
  measureSessions(bench, refs, { warmup: WARMUP, runs: APPENDS }, (ref) =>
    op(new SessionMemory(deps, { sessionId: ref.sessionId }), `append ${++seq}: one more question about trams in Lisbon`),
  );

const plain = await measure((m, content) => m.add([{ role: "user", content }]));
const turn = await measure((m, content) =>
  m.addWithContext([{ role: "user", content }], { budget: FILLED_BUDGET, countRecalls: false }, { deferCompression: true }),
);
await bench.close();
const backend = process.env.REDIS_URL ? `real Redis at ${process.env.REDIS_URL} via upstash-local` : "upstash-local embedded engine";
console.log(`Append, compression disabled, ${UPSTREAM_DELAY_MS} ms per Redis request, ${APPENDS} appends per size, ${backend}`);
printRows("plain append (stats only):", plain);
printRows(`chat turn's first append (bounded snapshot, budget ${FILLED_BUDGET} tokens, the 10-message session fills it):`, turn);
