/** @module The peers bench's measures (medians, sequential round trips, query parts) and the recall rows' user: facts and questions. */
import { readFileSync } from "node:fs";
import { isFollowUp } from "../../src/memory/facts/recall-query.ts";
import type { UpstashLocal } from "../../tools/upstash-local/index.ts";
import type { RequestLogEntry } from "../../tools/upstash-local/listener.ts";
import { embeddingStats } from "../../tools/upstash-local/vector/embedding-cache.ts";
import type { Dataset } from "../data/recall/schema.ts";
import { asLearned } from "../support/recall/parts.ts";

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

/** Sequential round trips: a request that starts within half the delay of the wave's first joins it. */
export function waves(entries: readonly RequestLogEntry[], delayMs: number): number {
  let count = 0;
  let start = Number.NEGATIVE_INFINITY;
  for (const at of entries.map((e) => e.at).sort((a, b) => a - b)) {
    if (at - start >= Math.max(delayMs, 2) / 2) {
      count += 1;
      start = at;
    }
  }
  return count;
}

export interface Measured {
  ms: number;
  trips: number;
  /** Queries in the span's Vector query requests (a batch counts each), and dense embeddings the emulator computed. */
  parts: number;
  embeddings: number;
}

/** Queries in a logged Vector query request: one, or the length of its batch (the log keeps 2 KB of the body). */
export function queryParts(entry: RequestLogEntry): number {
  if (!entry.path.startsWith("/query")) return 0;
  return Math.max(1, entry.body.match(/"topK"/g)?.length ?? 0);
}

const persona = JSON.parse(readFileSync(new URL("../data/recall/dataset.json", import.meta.url), "utf8")) as Dataset;
/** The recall rows' user's facts: a persona of the recall dataset, half of them as the learner words them. */
export const FACTS = persona.facts
  .filter((f) => f.persona === "emma")
  .slice(0, 40)
  .map((f, i) => ({ text: i % 2 === 0 ? f.text : asLearned(f.text), type: f.type }));
/** The persona's questions; none a follow-up, whose recall would wait for the session read in a chat turn. */
export const QUESTIONS = persona.queries.filter((q) => q.persona === "emma" && !isFollowUp(`turn 0: ${q.text}`)).map((q) => q.text);
/** A new question each turn: a marker (it also finds the turn's LLM call) and one of the persona's questions. */
export const question = (marker: string, i: number): string => `${marker}: ${QUESTIONS[i % QUESTIONS.length]}`;

/** The sessions' messages: a trip being planned, user and assistant in turn. */
export const text = (i: number): string =>
  i % 2 === 0
    ? `Turn ${i}: I am planning a trip to Lisbon in May, budget ${500 + (i % 40) * 10} euros. Any hotel near Alfama?`
    : `Turn ${i}: Try a guesthouse in Alfama around ${60 + (i % 30)} euros a night; trams 28 and 12 stop nearby.`;

/** Runs `op` with the emulators' logs cleared; the number an op returns (ms since epoch) ends its span. */
export function measurer(upstash: UpstashLocal, delayMs: number) {
  // biome-ignore lint/suspicious/noConfusingVoidType: an op returns nothing, or the end of its span
  return async (op: () => Promise<number | void>): Promise<Measured> => {
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
      trips: waves([...upstash.redis.log.filter(inSpan), ...vector], delayMs),
      parts: vector.reduce((n, e) => n + queryParts(e), 0),
      embeddings: embeddingStats().computed - computed,
    };
  };
}

/** One table row: median ms (round trips) per arm, then Agent Memory's and LangChain's query parts and embeddings per recall. */
export function tableRow(label: string, samples: readonly Measured[][], options: { pad: boolean; recall: boolean }): string {
  const cells = samples.map((ms) => `${median(ms.map((m) => m.ms)).toFixed(1)} (${median(ms.map((m) => m.trips))})`);
  if (options.pad && cells.length === 4) cells.push("-");
  const mean = (ms: readonly Measured[], f: (m: Measured) => number) =>
    (ms.reduce((n, m) => n + f(m), 0) / Math.max(1, ms.length)).toFixed(2);
  const [own = [], , lc = []] = samples;
  const parts = options.recall ? `${mean(own, (m) => m.parts)} / ${mean(lc, (m) => m.parts)}` : "-";
  const embedded = options.recall ? `${mean(own, (m) => m.embeddings)} / ${mean(lc, (m) => m.embeddings)}` : "-";
  return `| ${label} | ${cells.join(" | ")} | ${parts} | ${embedded} |`;
}

/** The body of a request that must succeed. */
export async function ok(url: URL, init: RequestInit = {}): Promise<string> {
  const res = await fetch(url, init);
  const body = await res.text();
  if (res.status >= 300) throw new Error(`${url.host}${url.pathname}: HTTP ${res.status} ${body.slice(0, 200)}`);
  return body;
}
