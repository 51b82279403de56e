/**
 * Recall quality on the committed dataset (bench/data/recall/dataset.json: six personas in English,
 * Chinese and both, facts of all five types, paraphrased queries with their expected facts, and
 * queries no fact answers). Each persona's facts go into its own namespace of an in-process
 * upstash-local Vector index; every retriever answers every query; figures are printed side by side.
 * The dataset's rules (paraphrase limit, ages within type lifetimes) are in bench/data/recall/rules.ts;
 * edit a persona file and rerun bench/data/recall/generate.ts to change it.
 *
 * Retrievers (bench/support; add one by writing a `RetrieverFactory` and listing it in RETRIEVERS):
 * - `product`: `SessionMemory.recall` with the default options for the index kind (`VECTOR_INDEX` =
 *   the mode; on hybrid, Worker-side fusion of both parts asked in one request). `product-querygate`:
 *   the same with the gate of `queryGate` per query (higher for a query not about the user). On hybrid also
 *   `product-rrf` / `product-dbsf`: the same with the index's own fusion (`VECTOR_FUSION`).
 * - `bm25`: plain BM25 over the same texts, in process (k1 1.5, b 0.75; words, CJK bigrams).
 * - `bm25-nostop`: the same without the stop words the emulator's BM25 model drops (informative:
 *   what matching "my", "I" or "do" is worth to the baseline, which never abstains).
 * - `cosine-raw`: the index's dense score alone, no product ranking: embedder vs ranking.
 * - hybrid only, "gate and ordering variants": other relevance mappings, gates and orders on the same
 *   candidates, each gate calibrated like the defaults, and on held-out persona halves
 *   (bench/support/recall/variants.ts).
 *
 * How to read it:
 * - recall@k = share of a query's expected facts in its top k (k asked for separately), averaged
 *   per query; MRR = 1 / rank of the first expected fact within the top 10. Higher is better.
 * - `dated`: facts carry their ages (within their type's lifetime) against a fixed "now";
 *   `undated`: every fact was created "now". The gap is (dated - undated) / undated: what ages cost.
 * - context injection: what `getContext({ query })` would inject (default recallK and minRecallScore).
 *   Abstention = share of (unrelated query, persona) pairs with nothing injected (higher is better);
 *   "injects something" for related queries is the other side of the same gate.
 * - breakdown: `en` / `zh` by query language, `cross-lingual` when the query's language differs from
 *   all its answers'; per type counts each expected fact of that type once.
 *
 *   npx tsx bench/recall-quality.ts [--mode dense|sparse|hybrid] [--dense-model USE_LITE|HASHING_WEIGHTED|HASHING] [--json]
 *
 * The dense model defaults to the dev stack's (`USE_LITE`: a sentence model for English, hashing for
 * CJK); `HASHING_WEIGHTED` is the hashing stand-in the tests use.
 *
 * Prints figures only.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Redis } from "@upstash/redis";
import { Index, type InfoResult } from "@upstash/vector";
import { DEFAULT_MEMORY_OPTIONS } from "../src/memory/options.ts";
import { DEFAULT_RECALL_GATES } from "../src/memory/facts/relevance.ts";
import { loadTokenCounter } from "../src/llm/tokenizer.ts";
import { startUpstashLocal } from "../tools/upstash-local/index.ts";
import type { Dataset } from "./data/recall/schema.ts";
import { bm25NoStopRetriever, bm25Retriever } from "./support/recall/bm25.ts";
import { BENCH_DENSE_MODEL, emulatorIndexFor } from "./support/recall/modes.ts";
import { parseDenseModel } from "../tools/upstash-local/vector/config.ts";
import { formatReport, type BenchResult } from "./support/recall/report.ts";
import { INDEX_MODES, isIndexMode, type BenchEnv, type IndexMode, type RetrieverFactory } from "./support/recall/retriever.ts";
import { personaFacts, runRetrievers } from "./support/recall/run.ts";
import { queryIntents } from "../src/memory/facts/query-intents.ts";
import type { Retriever } from "./support/recall/retriever.ts";
import { ReadOnceSessionStore } from "./support/recall/sessions.ts";
import { collectStudy } from "./support/recall/variants.ts";
import { formatStudy, runStudy, type StudyResult } from "./support/recall/study.ts";
import { formatHeldOut } from "./support/recall/heldout.ts";
import { cosineRawRetriever, productRetriever } from "./support/recall/vector.ts";

/** What is measured; a factory returning null for the index mode is left out of that run. */
const RETRIEVERS: readonly RetrieverFactory[] = [
  productRetriever("worker"),
  productRetriever("worker", { withoutIntents: true }),
  productRetriever("worker", { queryGate: true }),
  productRetriever("rrf"),
  productRetriever("dbsf"),
  bm25Retriever,
  bm25NoStopRetriever,
  cosineRawRetriever,
];

/** The calibrated gate of each product variant in `mode`. */
function gateText(mode: IndexMode): string {
  if (mode !== "hybrid") return `${mode} ${DEFAULT_RECALL_GATES[mode]}`;
  return (["hybrid", "rrf", "dbsf"] as const).map((s) => `${s} ${DEFAULT_RECALL_GATES[s]}`).join(", ");
}
/** Retrievers that get per-language and per-type lines. */
const BREAKDOWN = ["product", "product-querygate", "product-nointent", "bm25", "bm25-nostop"];
/** The fixed "now" that dated facts are aged against. */
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

const { values: flags } = parseArgs({
  options: { mode: { type: "string", default: "dense" }, "dense-model": { type: "string" }, json: { type: "boolean", default: false } },
});
const mode = flags.mode ?? "dense";
if (!isIndexMode(mode)) {
  console.error(`--mode must be one of ${INDEX_MODES.join(", ")}, got "${mode}"`);
  process.exit(2);
}
const emulatorIndex = emulatorIndexFor(mode, parseDenseModel(flags["dense-model"] ?? BENCH_DENSE_MODEL, "--dense-model"));

const dataset = JSON.parse(readFileSync(new URL("./data/recall/dataset.json", import.meta.url), "utf8")) as Dataset;

function describeIndex(info: InfoResult): BenchResult["index"] {
  const dense = info.denseIndex;
  return {
    dense: dense ? `${dense.dimension} dims, ${dense.similarityFunction}, ${dense.embeddingModel || "no model"}` : null,
    sparse: info.sparseIndex ? info.sparseIndex.embeddingModel || "no model" : null,
  };
}

/**
 * Query intents (src/memory/facts/query-intents.ts): paraphrase hit@3 of the product with and without the
 * intent wording, on the paraphrases the table may have been read against and on the held-out ones
 * (dated facts), and how many related and unrelated queries pick up an intent at all.
 */
async function intentFigures(retrievers: readonly Retriever[]): Promise<string[]> {
  const lines = ["", "query intents (dated; hit@3 = an expected fact in the top 3):"];
  const kinds = [
    ["paraphrase", "paraphrases"],
    ["held-out-paraphrase", "held-out paraphrases"],
  ] as const;
  const hitIds = new Map<string, Set<string>>();
  const measured = ["product", "product-nointent", "product-querygate"];
  for (const retriever of retrievers.filter((r) => measured.includes(r.name))) {
    const hits = new Map<string, number>();
    const ids = new Set<string>();
    hitIds.set(retriever.name, ids);
    for (const { id: persona } of dataset.personas) {
      const queries = dataset.queries.filter((q) => q.persona === persona && (q.kind === "paraphrase" || q.kind === "held-out-paraphrase"));
      if (queries.length === 0) continue;
      await retriever.setup(personaFacts(dataset, persona, "dated", NOW));
      for (const q of queries) {
        const top = await retriever.recall(q.text, 3);
        if (!q.answers.some((a) => top.includes(a))) continue;
        hits.set(q.kind ?? "", (hits.get(q.kind ?? "") ?? 0) + 1);
        ids.add(q.id);
      }
    }
    const cells = kinds.map(([kind, label]) => {
      const n = dataset.queries.filter((q) => q.kind === kind).length;
      const h = hits.get(kind) ?? 0;
      return `${label} ${(h / Math.max(1, n)).toFixed(3)} (${h}/${n})`;
    });
    lines.push(`  ${retriever.name.padEnd(17)} ${cells.join("  ")}`);
  }
  const [on, off] = [hitIds.get("product") ?? new Set<string>(), hitIds.get("product-nointent") ?? new Set<string>()];
  lines.push(
    `  gained: ${[...on].filter((id) => !off.has(id)).join(", ") || "none"}; lost: ${[...off].filter((id) => !on.has(id)).join(", ") || "none"}`,
  );
  const gated = hitIds.get("product-querygate") ?? new Set<string>();
  lines.push(`  product-querygate against product: lost ${[...on].filter((id) => !gated.has(id)).join(", ") || "none"}`);
  const withIntent = (texts: readonly string[]) => texts.filter((t) => queryIntents(t).length > 0).length;
  const related = dataset.queries.map((q) => q.text);
  lines.push(
    `  queries with an intent: ${withIntent(related)}/${related.length} related, ${withIntent(dataset.unrelated.map((u) => u.text))}/${dataset.unrelated.length} unrelated`,
  );
  return lines;
}

const started = performance.now();
const local = await startUpstashLocal({ redisPort: 0, vectorPort: 0, vector: emulatorIndex.config });
try {
  const index = new Index({ url: local.vector.url, token: local.token, enableTelemetry: false });
  const redis = new Redis({ url: local.redis.url, token: local.token, enableTelemetry: false });
  const counter = await loadTokenCounter();
  const env: BenchEnv = { index, sessions: new ReadOnceSessionStore(redis), counter, mode, now: NOW };
  const retrievers = RETRIEVERS.flatMap((make) => make(env) ?? []);
  const results = await runRetrievers(retrievers, dataset, NOW);
  // Gate and ordering variants on a hybrid index, with the held-out split (see support/recall/variants.ts).
  const recallK = DEFAULT_MEMORY_OPTIONS.recallK;
  const study: StudyResult | null = mode === "hybrid" ? runStudy(await collectStudy(index, dataset, NOW, recallK), dataset, recallK) : null;
  const result: BenchResult = {
    mode,
    index: describeIndex(await index.info()),
    now: new Date(NOW).toISOString(),
    dataset: {
      personas: dataset.personas.length,
      facts: dataset.facts.length,
      queries: dataset.queries.length,
      unrelated: dataset.unrelated.length,
    },
    defaults: { recallK: DEFAULT_MEMORY_OPTIONS.recallK, gate: gateText(mode), margin: DEFAULT_MEMORY_OPTIONS.recallMargin },
    seconds: (performance.now() - started) / 1000,
    retrievers: results,
  };
  const intents = await intentFigures(retrievers);
  if (flags.json) console.log(JSON.stringify({ ...result, study, intents }, null, 2));
  else
    console.log(
      [formatReport(result, BREAKDOWN), ...intents, ...(study ? [...formatStudy(study), ...formatHeldOut(study)] : [])].join("\n"),
    );
} finally {
  await local.close();
}
