/**
 * What each query part of a recall buys. On a hybrid index with Worker fusion a recall asks one
 * query batch: the question's first-person wording, its "the user" wording when that differs, and
 * for a relation question an intent wording, each as a DENSE and a SPARSE query (up to 6 parts).
 * Every part costs the index a query, and every distinct dense text an embedding (on the dev
 * stack's sentence model, about 20 ms of CPU each). This bench runs the product's recall
 * (`SessionMemory.recall` / `getContext`, default options) with the batch replaced by each
 * variant's plan (bench/support/recall/parts.ts), on the recall dataset twice: facts as written
 * (first person: persisted messages, episodes) and in the learner's voice ("The user's husband
 * Tomas teaches chemistry."), and prints per variant, beside "today" in the same run: parts and
 * dense texts per recall, recall@10, MRR, paraphrase and held-out paraphrase hit@3, abstention on
 * the unrelated pairs and the share of related questions whose context holds an expected fact.
 * The row `product` is the product itself, as this tree sends its parts.
 *
 *   npx tsx bench/recall-parts.ts [--dense-model USE_LITE|HASHING_WEIGHTED] [--variants "today,no third"] [--voice first|learned|both]
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Redis } from "@upstash/redis";
import { Index } from "@upstash/vector";
import { loadTokenCounter } from "../src/llm/tokenizer.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import { parseDenseModel } from "../tools/upstash-local/vector/config.ts";
import type { Dataset, DatasetQuery } from "./data/recall/schema.ts";
import { CUTOFFS, injectionFigures, queryFigures, type Cutoff, type Ranked } from "./support/recall/metrics.ts";
import { BENCH_DENSE_MODEL, emulatorIndexFor } from "./support/recall/modes.ts";
import { learnedVoice, PARTS_VARIANTS, PlannedFactStore, type PartsTally } from "./support/recall/parts.ts";
import type { BenchEnv, Retriever } from "./support/recall/retriever.ts";
import { personaFacts } from "./support/recall/run.ts";
import { ReadOnceSessionStore } from "./support/recall/sessions.ts";
import { productRetriever } from "./support/recall/vector.ts";

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const { values: flags } = parseArgs({
  options: { "dense-model": { type: "string" }, variants: { type: "string" }, voice: { type: "string", default: "both" } },
});
const denseModel = parseDenseModel(flags["dense-model"] ?? BENCH_DENSE_MODEL, "--dense-model");
const wanted = flags.variants?.split(",").map((s) => s.trim());
const variants = PARTS_VARIANTS.filter((v) => !wanted || wanted.includes(v.name) || v.name === "today");
const voices = flags.voice === "both" ? (["first", "learned"] as const) : ([flags.voice === "learned" ? "learned" : "first"] as const);
const written = JSON.parse(readFileSync(new URL("./data/recall/dataset.json", import.meta.url), "utf8")) as Dataset;

interface Row {
  name: string;
  about: string;
  tally: PartsTally | null;
  at10: number;
  en10: number;
  zh10: number;
  mrr: number;
  paraphrase: [number, number];
  heldOut: [number, number];
  abstains: number;
  unrelated: number;
  injectsExpected: number;
  /** ms per recall (the emulator's cache is shared by the rows: a text embedded for one row is not embedded again). */
  msPerRecall: number;
}

async function measure(retriever: Retriever, dataset: Dataset, tally: PartsTally | null): Promise<Omit<Row, "name" | "about">> {
  const ranked: Ranked[] = [];
  const related: { query: DatasetQuery; injected: string[] }[] = [];
  const unrelated: string[][] = [];
  let recalls = 0;
  let ms = 0;
  for (const { id: persona } of dataset.personas) {
    await retriever.setup(personaFacts(dataset, persona, "dated", NOW));
    const started = performance.now();
    for (const q of dataset.queries.filter((x) => x.persona === persona)) {
      const lists = {} as Record<Cutoff, string[]>;
      for (const k of CUTOFFS) lists[k] = await retriever.recall(q.text, k);
      ranked.push({ query: q, lists });
      related.push({ query: q, injected: (await retriever.inject?.(q.text)) ?? [] });
      recalls += CUTOFFS.length + 1;
    }
    for (const u of dataset.unrelated) {
      unrelated.push((await retriever.inject?.(u.text)) ?? []);
      recalls += 1;
    }
    ms += performance.now() - started;
  }
  const all = queryFigures(ranked);
  const hits = (kind: string): [number, number] => {
    const rs = ranked.filter((r) => r.query.kind === kind);
    return [rs.filter((r) => r.lists[5].slice(0, 3).some((id) => r.query.answers.includes(id))).length, rs.length];
  };
  const inj = injectionFigures(unrelated, related);
  return {
    tally,
    at10: all.recall[10],
    en10: queryFigures(ranked.filter((r) => r.query.language === "en")).recall[10],
    zh10: queryFigures(ranked.filter((r) => r.query.language === "zh")).recall[10],
    mrr: all.mrr,
    paraphrase: hits("paraphrase"),
    heldOut: hits("held-out-paraphrase"),
    abstains: inj.abstained,
    unrelated: inj.unrelated,
    injectsExpected: inj.hit,
    msPerRecall: ms / recalls,
  };
}

const f3 = (x: number) => x.toFixed(3);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const frac = ([h, n]: [number, number]) => `${f3(h / Math.max(1, n))} (${h}/${n})`;

function table(voice: string, rows: Row[]): string[] {
  const base = rows.find((r) => r.name === "today");
  const delta = (x: number, b: number | undefined, f: (v: number) => string) =>
    b === undefined || Math.abs(x - b) < 1e-9 ? f(x) : `${f(x)} (${x > b ? "+" : ""}${f(x - b)})`;
  const out = [
    "",
    `facts ${voice === "first" ? "as written (first person)" : 'in the learner\'s voice ("The user ...", 用户)'}:`,
    "| variant | parts / recall (max) | dense texts (embeddings) / recall | @10 | en @10 | zh @10 | MRR | paraphrase hit@3 | held-out hit@3 | abstains | injects an expected fact | ms / recall |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const t = r.tally;
    const parts = t ? `${(t.parts / t.recalls).toFixed(2)} (${t.maxParts})` : "-";
    const dense = t ? (t.denseTexts / t.recalls).toFixed(2) : "-";
    out.push(
      `| ${r.name} | ${parts} | ${dense} | ${delta(r.at10, base?.at10, f3)} | ${delta(r.en10, base?.en10, f3)} | ${delta(r.zh10, base?.zh10, f3)} | ${delta(r.mrr, base?.mrr, f3)} | ${frac(r.paraphrase)} | ${frac(r.heldOut)} | ${delta(r.abstains, base?.abstains, pct)} of ${r.unrelated} | ${delta(r.injectsExpected, base?.injectsExpected, pct)} | ${r.msPerRecall.toFixed(1)} |`,
    );
  }
  return out;
}

const started = performance.now();
const local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, vector: emulatorIndexFor("hybrid", denseModel).config });
const lines: string[] = [
  `recall parts: ${written.personas.length} personas, ${written.facts.length} facts, ${written.queries.length} queries, ${written.unrelated.length} unrelated (asked of every persona); hybrid index, dense model ${denseModel}; dated facts; product defaults`,
  "each recall@k asked separately (k 1, 5, 10) and one context per query: parts and texts are per store query",
];
try {
  const index = new Index({ url: local.vector.url, token: local.token, enableTelemetry: false });
  const redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
  const env: BenchEnv = { index, sessions: new ReadOnceSessionStore(redis), counter: await loadTokenCounter(), mode: "hybrid", now: NOW };
  for (const voice of voices) {
    const dataset = voice === "first" ? written : learnedVoice(written);
    const rows: Row[] = [];
    const product = productRetriever("worker")(env);
    if (product) rows.push({ name: "product", about: "this tree's recall", ...(await measure(product, dataset, null)) });
    console.error(`${voice}: product done`);
    for (const variant of variants) {
      const store = new PlannedFactStore(index, variant);
      const slug = variant.name.replace(/[^a-z0-9]+/gu, "-");
      const retriever = productRetriever("worker", { name: slug, store })(env);
      if (!retriever) continue;
      rows.push({ name: variant.name, about: variant.about, ...(await measure(retriever, dataset, store.tally)) });
      console.error(`${voice}: ${variant.name} done`);
    }
    const voiceLines = table(voice, rows);
    console.log(voiceLines.join("\n")); // as it comes: each voice takes minutes
    lines.push(...voiceLines);
  }
  lines.push("", ...variants.map((v) => `- ${v.name}: ${v.about}`), "", `took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  console.log(["", "all together:", ...lines].join("\n"));
} finally {
  await local.close();
}
