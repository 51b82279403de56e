/**
 * Retrieval quality of the emulator's offline models on a small labelled set
 * (bench/data/sparse/memories.json: 40 facts with one paraphrased question each, half Chinese,
 * plus 20 distractors). Every row stores all 60 texts with `upsert-data` in a fresh emulator and
 * asks the 40 questions with `query-data` through the official client; recall@k is the share of
 * questions whose fact is among the first k results (one relevant fact per question).
 *
 * Rows: BM25 term variants on a sparse index (CJK bigrams, unigrams+bigrams, Intl.Segmenter
 * words, optionally the `segmentit` package; English plain / light stem / Porter), the dense
 * hashing embedder before and after stop-feature weighting at several dimensions, and hybrid
 * fusion. Run with `npx tsx bench/sparse-tokenizers.ts`; to add the npm segmenter row, install it
 * without saving first: `npm i --no-save segmentit@2.0.3`. Prints figures only.
 */
import { readFile } from "node:fs/promises";
import { FusionAlgorithm, Index, QueryMode, WeightingStrategy } from "@upstash/vector";
import type { CjkTerms, VectorIndexSettings } from "../tools/upstash-local/vector/index.ts";
import { startVectorEmulator } from "../tools/upstash-local/vector/standalone.ts";

interface Item {
  id: string;
  lang: "en" | "zh";
  text: string;
  query?: string;
}
const set = JSON.parse(await readFile(new URL("./data/sparse/memories.json", import.meta.url), "utf8")) as {
  facts: Item[];
  distractors: Item[];
};
const questions = set.facts.filter((f): f is Item & { query: string } => f.query !== undefined);

interface Row {
  label: string;
  index: VectorIndexSettings;
  query?: { weightingStrategy?: WeightingStrategy; fusionAlgorithm?: FusionAlgorithm; queryMode?: QueryMode };
}

/** Recall@1 and @5 per language and overall, through a fresh emulator with the row's settings. */
async function measure(row: Row): Promise<Record<"en" | "zh" | "all", [number, number]>> {
  const emu = await startVectorEmulator({ index: row.index });
  try {
    const index = new Index({ url: emu.url, token: emu.token });
    await index.upsert([...set.facts, ...set.distractors].map((f) => ({ id: f.id, data: f.text })));
    const hits = { en: [0, 0], zh: [0, 0], all: [0, 0] };
    const counts = { en: 0, zh: 0, all: 0 };
    for (const q of questions) {
      const result = await index.query({ data: q.query, topK: 5, ...row.query });
      const rank = result.findIndex((r) => r.id === q.id);
      for (const key of [q.lang, "all"] as const) {
        counts[key] += 1;
        if (rank === 0) hits[key][0] = (hits[key][0] ?? 0) + 1;
        if (rank >= 0) hits[key][1] = (hits[key][1] ?? 0) + 1;
      }
    }
    const ratio = (key: "en" | "zh" | "all"): [number, number] => [(hits[key][0] ?? 0) / counts[key], (hits[key][1] ?? 0) / counts[key]];
    return { en: ratio("en"), zh: ratio("zh"), all: ratio("all") };
  } finally {
    await emu.close();
  }
}

/** The `segmentit` package (pure JS, ~16 MB with its dictionary), if installed. */
async function segmentitTerms(): Promise<CjkTerms | undefined> {
  const name = "segmentit";
  interface SegmentitApi {
    Segment: new () => unknown;
    useDefault: (s: unknown) => { doSegment(text: string, options: { simple: true }): string[] };
  }
  const mod = (await import(name).catch(() => undefined)) as (Partial<SegmentitApi> & { default?: SegmentitApi }) | undefined;
  const api = mod?.Segment && mod.useDefault ? (mod as SegmentitApi) : mod?.default; // ESM named exports or the CJS default
  if (!api) return undefined;
  const segment = api.useDefault(new api.Segment());
  return (run: string) => segment.doSegment(run, { simple: true });
}

const IDF = { weightingStrategy: WeightingStrategy.IDF };
const sparse = (bm25: NonNullable<VectorIndexSettings["bm25"]>): VectorIndexSettings => ({ kind: "sparse", bm25 });
const dense = (dimension: number, denseModel: "HASHING" | "HASHING_WEIGHTED"): VectorIndexSettings => ({
  kind: "dense",
  dimension,
  denseModel,
});

const rows: Row[] = [
  { label: "BM25 zh bigrams", index: sparse({ cjk: "bigrams" }), query: IDF },
  { label: "BM25 zh unigrams+bigrams", index: sparse({ cjk: "unigrams+bigrams" }), query: IDF },
  { label: "BM25 zh Intl.Segmenter words", index: sparse({ cjk: "segmenter" }), query: IDF },
];
const segmentit = await segmentitTerms();
if (segmentit) rows.push({ label: "BM25 zh segmentit 2.0.3 words", index: sparse({ cjk: segmentit }), query: IDF });
rows.push(
  { label: "BM25 en plain words", index: sparse({ words: "plain" }), query: IDF },
  { label: "BM25 en light stem", index: sparse({ words: "light-stem" }), query: IDF },
  { label: "BM25 en Porter stem", index: sparse({ words: "porter" }), query: IDF },
  { label: "BM25 default, no stop words", index: sparse({ stopWords: false }), query: IDF },
  { label: "BM25 default, no IDF at query", index: sparse({}) },
  { label: "dense HASHING 384 (before)", index: dense(384, "HASHING") },
  { label: "dense HASHING 1024", index: dense(1024, "HASHING") },
  { label: "dense HASHING 3072", index: dense(3072, "HASHING") },
  { label: "dense HASHING_WEIGHTED 384", index: dense(384, "HASHING_WEIGHTED") },
  { label: "dense HASHING_WEIGHTED 1024", index: dense(1024, "HASHING_WEIGHTED") },
  { label: "dense HASHING_WEIGHTED 3072", index: dense(3072, "HASHING_WEIGHTED") },
  { label: "hybrid, HASHING 384 dense, RRF", index: { kind: "hybrid", dimension: 384, denseModel: "HASHING" }, query: { ...IDF } },
  { label: "hybrid default, RRF", index: { kind: "hybrid" }, query: { ...IDF, fusionAlgorithm: FusionAlgorithm.RRF } },
  { label: "hybrid default, DBSF", index: { kind: "hybrid" }, query: { ...IDF, fusionAlgorithm: FusionAlgorithm.DBSF } },
  { label: "hybrid default, queryMode SPARSE", index: { kind: "hybrid" }, query: { ...IDF, queryMode: QueryMode.SPARSE } },
  { label: "hybrid default, queryMode DENSE", index: { kind: "hybrid" }, query: { queryMode: QueryMode.DENSE } },
);

const pct = ([at1, at5]: [number, number]): string => `${at1.toFixed(3)} / ${at5.toFixed(3)}`;
console.log(`${questions.length} questions over ${set.facts.length + set.distractors.length} texts; recall@1 / recall@5`);
console.log(`${"configuration".padEnd(36)} ${"zh".padEnd(14)} ${"en".padEnd(14)} all`);
for (const row of rows) {
  const r = await measure(row);
  console.log(`${row.label.padEnd(36)} ${pct(r.zh).padEnd(14)} ${pct(r.en).padEnd(14)} ${pct(r.all)}`);
}
if (!segmentit) console.log("(segmentit not installed: npm i --no-save segmentit@2.0.3 adds its row)");
