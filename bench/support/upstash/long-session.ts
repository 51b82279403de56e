import { performance } from "node:perf_hooks";
import { Redis } from "@upstash/redis";
import { loadTokenCounter } from "../../../src/llm/tokenizer.ts";
import { DEFAULT_MEMORY_OPTIONS, type MemoryOptions } from "../../../src/memory/options.ts";
import type { SessionRef, StoredMessage } from "../../../src/memory/model.ts";
import { toStoredMessage } from "../../../src/memory/context/window.ts";
import { RedisSessionStore } from "../../../src/stores/session-store.ts";
import { RedisUserStore } from "../../../src/stores/user-store.ts";
import { testDeps, type TestDeps } from "../../../test/support/memory-deps.ts";
import { startUpstashLocal, type UpstashLocal } from "../../../tools/upstash-local/index.ts";
import { countFetch, type Wire } from "./wire.ts";

/**
 * Shared setup of the read and append benches: upstash-local with a fixed delay per request,
 * sessions of N uncompressed messages (written straight through the store, no compression), the
 * process's fetch counted.
 */
export const SIZES = [10, 1_000, 10_000];
export const UPSTREAM_DELAY_MS = 20;
/** A budget the 10-message session already fills (its messages hold ~30 tokens each). */
export const FILLED_BUDGET = 300;

export interface Bench {
  upstash: UpstashLocal;
  sessions: RedisSessionStore;
  deps: (options?: Partial<MemoryOptions>) => TestDeps;
  wire: Wire;
  message: (i: number) => StoredMessage;
  build: (total: number) => Promise<SessionRef>;
  close: () => Promise<void>;
}

export async function startBench(label: string): Promise<Bench> {
  const upstash = await startUpstashLocal({
    redisPort: 0,
    vectorPort: 0,
    redisUrl: process.env.REDIS_URL || undefined,
    vector: { kind: "dense" },
  });
  const redis = new Redis({ url: upstash.redis.url, token: upstash.token, enableTelemetry: false });
  const sessions = new RedisSessionStore(redis);
  const counter = await loadTokenCounter();
  const users = new RedisUserStore(redis);
  const run = crypto.randomUUID().slice(0, 8);
  const built: SessionRef[] = [];
  const message = (i: number): StoredMessage => {
    const content =
      i % 2 === 0
        ? `Turn ${i}: I am planning a trip to Lisbon in May, budget ${500 + (i % 40) * 10} euros. Any hotel near Alfama?`
        : `Turn ${i}: Try a guesthouse in Alfama around ${60 + (i % 30)} euros a night; trams 28 and 12 stop nearby.`;
    return toStoredMessage(
      { id: `m${i}`, role: i % 2 === 0 ? "user" : "assistant", content },
      { counter, now: Date.now(), newId: () => `m${i}` },
    );
  };
  const build = async (total: number): Promise<SessionRef> => {
    const ref: SessionRef = { tenant: "bench", sessionId: `${label}-${run}-${total}` };
    const system = toStoredMessage(
      { id: "sys", role: "system", content: "You are a travel assistant." },
      { counter, now: Date.now(), newId: () => "sys" },
    );
    await sessions.append(ref, [system], { ttlSeconds: 3600 });
    for (let start = 0; start < total; start += 250) {
      await sessions.append(
        ref,
        Array.from({ length: Math.min(250, total - start) }, (_, j) => message(start + j)),
        { ttlSeconds: 3600 },
      );
    }
    built.push(ref);
    return ref;
  };
  // compression disabled: the window keeps every message
  const deps = (options: Partial<MemoryOptions> = {}) =>
    testDeps({
      tenant: "bench",
      counter,
      sessions,
      users,
      facts: null,
      options: { ...DEFAULT_MEMORY_OPTIONS, maxTokens: 1_000_000, ...options },
    });
  const wire = countFetch();
  upstash.redis.setDelay(UPSTREAM_DELAY_MS);
  const close = async () => {
    upstash.redis.setDelay(0);
    for (const ref of built) await sessions.reset(ref, { keepSystem: false });
    await upstash.close();
  };
  return { upstash, sessions, deps, wire, message, build, close };
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/**
 * Runs `op` on every session, `warmup + runs` rounds, interleaved so noise falls on every size
 * alike, and gives per session the median time and the bytes and requests per op on the wire.
 */
export async function measureSessions(
  bench: Bench,
  refs: readonly SessionRef[],
  rounds: { warmup: number; runs: number },
  op: (ref: SessionRef) => Promise<unknown>,
): Promise<Row[]> {
  const samples = refs.map(() => ({ times: [] as number[], bytes: 0, requests: 0 }));
  for (let i = 0; i < rounds.warmup + rounds.runs; i++) {
    for (const [j, ref] of refs.entries()) {
      bench.wire.reset();
      const started = performance.now();
      await op(ref);
      const elapsed = performance.now() - started;
      if (i < rounds.warmup) continue;
      const s = samples[j]!;
      s.times.push(elapsed);
      s.bytes += bench.wire.bytesIn + bench.wire.bytesOut;
      s.requests += bench.wire.requests;
    }
  }
  return samples.map((s, j) => ({
    messages: SIZES[j]!,
    median: median(s.times),
    bytes: s.bytes / rounds.runs,
    requests: s.requests / rounds.runs,
  }));
}

export interface Row {
  messages: number;
  median: number;
  bytes: number;
  requests: number;
  note?: string | undefined;
}

/** Prints a table and the 10,000-vs-10 growth ratios of time and bytes. */
export function printRows(title: string, rows: readonly Row[]): void {
  console.log(title);
  console.log("| messages | median ms | bytes moved / op | requests / op |");
  console.log("|---:|---:|---:|---:|");
  for (const r of rows) console.log(`| ${r.messages} | ${r.median.toFixed(1)} | ${Math.round(r.bytes)} | ${r.requests.toFixed(2)} |`);
  const small = rows[0];
  const large = rows[rows.length - 1];
  if (small && large) {
    console.log(
      `growth ${large.messages} vs ${small.messages}: time ${(large.median / small.median).toFixed(2)}x, bytes ${(large.bytes / small.bytes).toFixed(2)}x`,
    );
  }
  console.log("");
}
