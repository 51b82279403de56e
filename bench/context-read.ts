/**
 * Context read cost against history length, compression disabled: sessions of 10, 1,000 and
 * 10,000 unsummarized messages read with `SessionMemory.getContext` (no query) over upstash-local
 * with 20 ms added to every Redis request. Prints the median latency, the bytes moved per read
 * (request and response bodies) and the requests per read, with the growth ratio 10,000 vs 10:
 * once with a budget the 10-message session already fills (300 tokens), once with the default
 * budget (8,000 tokens, which only the longer sessions fill).
 *
 *   node --import tsx bench/context-read.ts                (embedded Redis engine)
 *   REDIS_URL=redis://127.0.0.1:6379 node --import tsx bench/context-read.ts   (a real Redis)
 */
import { SessionMemory } from "../src/memory/sessions/session-memory.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../src/memory/options.ts";
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

const READS = 40;
const WARMUP = 5;

const bench = await startBench("ctx");
const deps = bench.deps();
const refs: SessionRef[] = [];
for (const total of SIZES) refs.push(await bench.build(total));

const measure = (budget: number): Promise<Row[]> =>
  measureSessions(bench, refs, { warmup: WARMUP, runs: READS }, (ref) =>
    new SessionMemory(deps, { sessionId: ref.sessionId }).getContext({ budget }),
  );

const backend = process.env.REDIS_URL ? `real Redis at ${process.env.REDIS_URL} via upstash-local` : "upstash-local embedded engine";
const filled = await measure(FILLED_BUDGET);
const defaults = await measure(DEFAULT_MEMORY_OPTIONS.budget);
await bench.close();
const head = `Context read (getContext, no query), compression disabled, ${UPSTREAM_DELAY_MS} ms per Redis request, ${READS} reads per size, ${backend}`;
printRows(`${head}\nbudget ${FILLED_BUDGET} tokens (the 10-message session fills it):`, filled);
printRows(`budget ${DEFAULT_MEMORY_OPTIONS.budget} tokens (default):`, defaults);
