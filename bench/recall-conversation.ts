/**
 * Long-conversation recall: one user's 480 turns over 40 sessions, each stored as a fact dated when
 * it was said (bench/data/conversation), and 99 questions whose evidence is one or two turns (20 ask
 * when something happened: finding the turn finds its date). Each retriever answers every question
 * at k = 1, 5 and 10; recall@k = share of the evidence turns in the top k, MRR = 1 / rank of the first
 * evidence turn within the top 10.
 *
 * Retrievers, side by side in one run:
 * - `bm25`: plain BM25 over the turns, in process (the lexical baseline, never abstains);
 * - per dense model of the emulator (`HASHING_WEIGHTED`, the tests' stand-in, and `USE_LITE`, the
 *   dev stack's): `dense` = the index's dense ranking alone (query-data, DENSE), and `product` =
 *   `SessionMemory.recall` with the default options on a hybrid index (Worker-side fusion, gates,
 *   value and recency tie-break), plus `product-rrf` / `product-dbsf` with the index's fusion.
 *
 *   npx tsx bench/recall-conversation.ts [--dense-model USE_LITE|HASHING_WEIGHTED|HASHING ...] [--json]
 *
 * Prints figures only.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Redis } from "@upstash/redis";
import { Index } from "@upstash/vector";
import { loadTokenCounter } from "../src/llm/tokenizer.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { parseDenseModel, type DenseModel } from "../tools/upstash-local/vector/config.ts";
import type { Conversation } from "./data/conversation/build.ts";
import type { DatasetQuery } from "./data/recall/schema.ts";
import { bm25Retriever } from "./support/recall/bm25.ts";
import { CUTOFFS, queryFigures, type Cutoff, type Figures, type Ranked } from "./support/recall/metrics.ts";
import type { BenchEnv, PersonaFacts, Retriever } from "./support/recall/retriever.ts";
import { ReadOnceSessionStore } from "./support/recall/sessions.ts";
import { cosineRawRetriever, productRetriever } from "./support/recall/vector.ts";

const { values: flags } = parseArgs({
  options: { "dense-model": { type: "string", multiple: true }, json: { type: "boolean", default: false } },
});
const models: DenseModel[] = (flags["dense-model"] ?? ["HASHING_WEIGHTED", "USE_LITE"]).map((m) => parseDenseModel(m, "--dense-model"));

const conversation = JSON.parse(readFileSync(new URL("./data/conversation/conversation.json", import.meta.url), "utf8")) as Conversation;
const persona: PersonaFacts = {
  persona: "conversation",
  facts: conversation.turns.map((t) => ({ id: t.id, text: t.text, type: "fact", importance: 0.5, createdAt: t.at })),
};
const questions: DatasetQuery[] = conversation.questions.map((q) => ({
  id: q.id,
  persona: "conversation",
  text: q.text,
  language: "en",
  answers: q.evidence,
  crossLingual: false,
}));
const isWhen = new Set(conversation.questions.filter((q) => q.when).map((q) => q.id));
const isPair = new Set(conversation.questions.filter((q) => q.evidence.length === 2).map((q) => q.id));

interface Row {
  name: string;
  all: Figures;
  when: Figures;
  twoTurns: Figures;
  seconds: number;
}

async function measure(retriever: Retriever, label: string): Promise<Row> {
  const started = performance.now();
  await retriever.setup(persona);
  const ranked: Ranked[] = [];
  for (const query of questions) {
    const lists = {} as Record<Cutoff, string[]>;
    for (const k of CUTOFFS) lists[k] = await retriever.recall(query.text, k);
    ranked.push({ query, lists });
  }
  return {
    name: label,
    all: queryFigures(ranked),
    when: queryFigures(ranked.filter((r) => isWhen.has(r.query.id))),
    twoTurns: queryFigures(ranked.filter((r) => isPair.has(r.query.id))),
    seconds: (performance.now() - started) / 1000,
  };
}

const rows: Row[] = [];
const counter = await loadTokenCounter();
let first = true;
for (const denseModel of models) {
  const local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, vector: { kind: "hybrid", denseModel } });
  try {
    const index = new Index({ url: local.vector.url, token: local.token, enableTelemetry: false });
    const redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
    const env: BenchEnv = { index, sessions: new ReadOnceSessionStore(redis), counter, mode: "hybrid", now: conversation.now };
    if (first) rows.push(await measure(bm25Retriever(env) as Retriever, "bm25"));
    first = false;
    for (const [make, name] of [
      [cosineRawRetriever, "dense"],
      [productRetriever("worker"), "product"],
      [productRetriever("rrf"), "product-rrf"],
      [productRetriever("dbsf"), "product-dbsf"],
    ] as const) {
      const retriever = make(env);
      if (retriever) rows.push(await measure(retriever, `${name} (${denseModel})`));
    }
  } finally {
    await local.close();
  }
}

if (flags.json) {
  console.log(JSON.stringify({ turns: conversation.turns.length, questions: questions.length, rows }, null, 2));
} else {
  const n = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "  -  ");
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(i === 0 ? 32 : 8))
      .join(" ")
      .trimEnd();
  console.log(
    `long conversation: ${conversation.turns.length} turns (each a fact, dated), ${questions.length} questions ` +
      `(${isWhen.size} ask when, ${isPair.size} need two turns); product = default options, hybrid index`,
  );
  console.log(line(["retriever", "@1", "@5", "@10", "MRR", "when @10", "2-turn @10", "seconds"]));
  for (const r of rows) {
    console.log(
      line([
        r.name,
        n(r.all.recall[1]),
        n(r.all.recall[5]),
        n(r.all.recall[10]),
        n(r.all.mrr),
        n(r.when.recall[10]),
        n(r.twoTurns.recall[10]),
        r.seconds.toFixed(0),
      ]),
    );
  }
}
