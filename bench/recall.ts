/**
 * Recall latency over one user's 10,000 facts on the offline emulator: inserts them through
 * VectorFactStore (upsert-data, batches of 1000, the index embeds the text), then times ~300
 * FactService.recall calls (query + ranking) and the same raw queries through the client.
 * Run with `npx tsx bench/recall.ts`. Prints figures only.
 */
import { performance } from "node:perf_hooks";
import { Index } from "@upstash/vector";
import { FactService } from "../src/memory/facts/fact-service.ts";
import { createFact, factId } from "../src/memory/facts/identity.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../src/memory/options.ts";
import type { FactScope } from "../src/memory/ports/facts.ts";
import { FACT_TYPES, type Fact } from "../src/memory/model.ts";
import { scopeToNamespace } from "../src/stores/fact-namespace.ts";
import { VectorFactStore } from "../src/stores/facts-vector.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";

const COUNT = 10_000;
const BATCH = 1000;
const QUERIES = 300;
const WARMUP = 20;
const K = 3;

const SUBJECTS = ["the user", "用户", "my sister", "我的同事", "our team", "the client"];
const VERBS = ["likes", "喜欢", "avoids", "正在学习", "often visits", "讨厌", "remembers", "计划去"];
const OBJECTS = [
  "green tea",
  "蓝色",
  "jazz music",
  "杭州西湖",
  "hiking in the Alps",
  "Python programming",
  "花生",
  "window seats",
  "early flights",
  "日本料理",
  "board games",
  "marathon training",
  "the color red",
  "咖啡",
  "vintage cameras",
  "猫",
];
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;
const textOf = (i: number): string =>
  `${pick(SUBJECTS, i)} ${pick(VERBS, Math.floor(i / 6))} ${pick(OBJECTS, Math.floor(i / 48))} (note ${i})`;

function report(label: string, ms: number[]): void {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  console.log(
    `${label.padEnd(36)} n=${sorted.length}  median ${at(0.5).toFixed(2)} ms  p95 ${at(0.95).toFixed(2)} ms  mean ${mean.toFixed(2)} ms`,
  );
}

const local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, vector: { kind: "dense" } });
try {
  const index = new Index({ url: local.vector.url, token: local.token, enableTelemetry: false });
  const store = new VectorFactStore(index);
  const scope: FactScope = { tenant: "bench", userId: "u1" };
  const namespace = scopeToNamespace(scope);
  const now = Date.now();

  const upsertMs: number[] = [];
  for (let start = 0; start < COUNT; start += BATCH) {
    const batch: Fact[] = [];
    for (let i = start; i < Math.min(COUNT, start + BATCH); i++) {
      const text = textOf(i);
      batch.push(
        createFact(await factId(scope, text), { text, type: pick(FACT_TYPES, i), importance: (i % 10) / 10 }, now - (i % 30) * 86_400_000),
      );
    }
    const t0 = performance.now();
    await store.upsert(scope, batch);
    upsertMs.push(performance.now() - t0);
  }
  const info = await index.info();
  console.log(
    `facts: ${info.namespaces[namespace]?.vectorCount ?? 0} in one namespace, ${info.dimension} dims (${info.similarityFunction})`,
  );
  report(`upsert-data batch of ${BATCH}`, upsertMs);

  const service = new FactService({ facts: store, scope, options: DEFAULT_MEMORY_OPTIONS });
  const queries = Array.from({ length: QUERIES + WARMUP }, (_, i) =>
    i % 2 === 0 ? `what does ${pick(SUBJECTS, i)} like about ${pick(OBJECTS, i * 7)}?` : `${pick(SUBJECTS, i)}${pick(VERBS, i)}什么`,
  );
  for (const q of queries.slice(0, WARMUP)) await service.recall(q, { k: K });

  const recallMs: number[] = [];
  let returned = 0;
  for (const q of queries.slice(WARMUP)) {
    const t0 = performance.now();
    returned += (await service.recall(q, { k: K })).length;
    recallMs.push(performance.now() - t0);
  }
  report(`FactService.recall k=${K} (query+rank)`, recallMs);

  const topK = Math.min(100, Math.max(K * 3, K + 5));
  const rawMs: number[] = [];
  for (const q of queries.slice(WARMUP)) {
    const t0 = performance.now();
    await index.query({ data: q, topK, includeMetadata: true }, { namespace });
    rawMs.push(performance.now() - t0);
  }
  report(`raw query-data topK=${topK} (client, HTTP)`, rawMs);
  console.log(`average facts returned per recall: ${(returned / QUERIES).toFixed(2)}`);
} finally {
  await local.close();
}
