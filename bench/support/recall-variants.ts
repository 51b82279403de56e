import { QueryMode, WeightingStrategy, type Index, type QueryResult } from "@upstash/vector";
import { createFact, factId } from "../../src/memory/facts/identity.ts";
import { candidateDepth } from "../../src/memory/facts/recall.ts";
import { recallQueryText, recallQueryTexts } from "../../src/memory/facts/recall-query.ts";
import { GATE_FLOOR_RATIO, HYBRID_SCRIPT_GATES, hybridRelevance, queryCjkShare } from "../../src/memory/facts/relevance.ts";
import { scopeToNamespace } from "../../src/stores/fact-namespace.ts";
import { VectorFactStore } from "../../src/stores/facts-vector.ts";
import { DEFAULT_BM25, idfWeight, textTerms } from "../../tools/upstash-local/vector/index.ts";
import type { Dataset, DatasetQuery, Language } from "../data/recall/schema.ts";
import { Bm25Index, bm25Terms, bm25TermsWithoutStopWords } from "./bm25.ts";
import { CUTOFFS, queryFigures, type Cutoff, type Figures, type Ranked } from "./recall-metrics.ts";
import { personaFacts } from "./recall-run.ts";

/**
 * Gate and ordering variants of hybrid recall, measured side by side on the same candidates.
 *
 * Every query is asked of the emulator's hybrid index once per depth the product would use (dense
 * and sparse part in one batch, as `VectorFactStore` does, plus the sparse part IDF-weighted for the
 * variants that need it). A variant maps a candidate to a relevance, gates on the best candidate
 * and orders the survivors. Its gate is never picked by hand: it is the lowest value that abstains
 * on at least 90% of the fit personas' (unrelated query, persona) pairs, the rule the product's
 * defaults were calibrated with. To show that the choice is not fitted to the test, each variant is
 * also calibrated on one half of the personas and measured on the other (split by persona).
 * Only relevance is used (no importance / recency tie-break) and facts are dated, so `mean` at the
 * product's default gate is the product's hybrid recall without its tie-break.
 */

/** One candidate: the dataset id and each part's raw score (absent: that part did not return it). */
export interface StudyCandidate {
  id: string;
  dense?: number | undefined;
  sparse?: number | undefined;
  sparseIdf?: number | undefined;
}

/** What a variant may know of the query besides its candidates (computable in the Worker or index). */
export interface StudyQueryInfo {
  language: Language;
  /** Share of the recall query's words in CJK, as the product computes it (queryCjkShare). */
  cjkShare: number;
  /** Distinct BM25 terms of the recall query text (the emulator's tokenizer). */
  terms: number;
  /** Sum of the IDF weights of those terms in the persona's namespace. */
  idfSum: number;
}

interface StudyQuery extends StudyQueryInfo {
  persona: string;
  /** Null for an unrelated query. */
  query: DatasetQuery | null;
  /** Candidates at the product's depth for each cutoff (related) or for the context's k (unrelated). */
  byK: Map<number, StudyCandidate[]>;
}

export interface Variant {
  name: string;
  /** Relevance of a candidate, 0 = unrelated. */
  relevance(c: StudyCandidate, q: StudyQueryInfo): number;
  /** Survivors below `gate x floorRatio` are cut (the product's two-level gate); 0 keeps all. */
  floorRatio: number;
  /**
   * `relevance` (the product), `rrf`: reciprocal-rank fusion of the dense and sparse ranks (k 60),
   * or `dbsf`: each part's scores normalized by mean +- 3 sigma over the candidates, summed.
   */
  order: "relevance" | "rrf" | "dbsf";
  /** One gate per query script instead of one for all. */
  perScript?: boolean;
  /** A fixed gate instead of a calibrated one (one for all, or one per query script). */
  fixedGate?: number | Gates;
}

const denseRel = (s: number | undefined): number => (s === undefined ? 0 : Math.min(1, Math.max(0, (s - 0.5) * 2)));
/** Largest BM25 weight one document term can have: f (k1 + 1) / (f + ...) tends to k1 + 1. */
const TERM_MAX = DEFAULT_BM25.k1 + 1;
const hybridOf = (c: StudyCandidate, q: StudyQueryInfo): number => hybridRelevance(c.dense, c.sparse, q.cjkShare);

/** The product's Worker-fused gates by query script. */
export const PRODUCT_GATES: Gates = { en: HYBRID_SCRIPT_GATES.latin, zh: HYBRID_SCRIPT_GATES.cjk };

/** The variants, the product's first. */
export const VARIANTS: readonly Variant[] = [
  { name: "mean (product) at its gate", relevance: hybridOf, floorRatio: GATE_FLOOR_RATIO, order: "relevance", fixedGate: PRODUCT_GATES },
  // the ranking's ceiling: what the candidates hold when nothing is gated (abstains on nothing)
  { name: "mean, no gate", relevance: hybridOf, floorRatio: 0, order: "relevance", fixedGate: 0 },
  { name: "mean", relevance: hybridOf, floorRatio: GATE_FLOOR_RATIO, order: "relevance", perScript: true },
  { name: "mean, one gate", relevance: hybridOf, floorRatio: GATE_FLOOR_RATIO, order: "relevance" },
  { name: "mean, no floor", relevance: hybridOf, floorRatio: 0, order: "relevance", perScript: true },
  { name: "(b) mean gate, rrf order", relevance: hybridOf, floorRatio: GATE_FLOOR_RATIO, order: "rrf", perScript: true },
  {
    // Upstash recommends IDF weighting with its BM25 model; the product's sparse query has none
    name: "mean, sparse query IDF-weighted",
    relevance: (c, q) => hybridRelevance(c.dense, c.sparseIdf, q.cjkShare),
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
  },
  {
    name: "(a) coverage",
    // sparse score / the query's maximum attainable score (every term matched at its largest weight)
    relevance: (c, q) => 0.5 * denseRel(c.dense) + 0.5 * Math.min(1, (c.sparse ?? 0) / (TERM_MAX * Math.max(1, q.terms))),
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
  },
  {
    name: "(a) coverage, gate per script",
    relevance: (c, q) => 0.5 * denseRel(c.dense) + 0.5 * Math.min(1, (c.sparse ?? 0) / (TERM_MAX * Math.max(1, q.terms))),
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
    perScript: true,
  },
  {
    name: "(a) idf coverage",
    relevance: (c, q) => 0.5 * denseRel(c.dense) + 0.5 * Math.min(1, (c.sparseIdf ?? 0) / (TERM_MAX * Math.max(1e-9, q.idfSum))),
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
  },
  {
    name: "(c) either part: max(dense, idf cov)",
    relevance: (c, q) => Math.max(denseRel(c.dense), Math.min(1, (c.sparseIdf ?? 0) / (TERM_MAX * Math.max(1e-9, q.idfSum)))),
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
  },
];

/** Persona halves for the held-out check: each has an English persona and Chinese ones. */
export const HALVES: readonly [readonly string[], readonly string[]] = [
  ["emma", "xiaowen", "jianguo"],
  ["marcus", "jiayi", "kai"],
];

function merge(
  dense: readonly QueryResult[],
  sparse: readonly QueryResult[],
  idf: readonly QueryResult[],
  ids: Map<string, string>,
): StudyCandidate[] {
  const by = new Map<string, StudyCandidate>();
  const put = (rs: readonly QueryResult[], part: "dense" | "sparse" | "sparseIdf"): void => {
    for (const r of rs) {
      const id = ids.get(String(r.id));
      if (!id) continue;
      const c = by.get(id) ?? { id };
      c[part] = r.score;
      by.set(id, c);
    }
  };
  put(dense, "dense");
  put(sparse, "sparse");
  put(idf, "sparseIdf");
  return [...by.values()];
}

/** Per id, the result with the highest score among `lists` (one list per wording). */
function bestResults(lists: readonly (readonly QueryResult[])[]): QueryResult[] {
  const by = new Map<string, QueryResult>();
  for (const r of lists.flat()) {
    const found = by.get(String(r.id));
    if (!found || r.score > found.score) by.set(String(r.id), r);
  }
  return [...by.values()];
}

/** Asks every query of every persona (facts dated against `now`) at the product's depths. */
export async function collectStudy(index: Index, dataset: Dataset, now: number, recallK: number): Promise<StudyQuery[]> {
  const store = new VectorFactStore(index, { retrieval: "hybrid" });
  const out: StudyQuery[] = [];
  for (const { id: persona } of dataset.personas) {
    const scope = { tenant: "study", userId: persona };
    const namespace = scopeToNamespace(scope);
    const facts = personaFacts(dataset, persona, "dated", now).facts;
    await store.deleteAll(scope);
    const ids = new Map<string, string>();
    const stored = await Promise.all(
      facts.map(async (f) => {
        const id = await factId(scope, f.text);
        ids.set(id, f.id);
        return createFact(id, { text: f.text, type: f.type, importance: f.importance }, f.createdAt);
      }),
    );
    await store.upsert(scope, stored);
    const df = new Map<string, number>();
    for (const f of facts) for (const t of new Set(textTerms(f.text, DEFAULT_BM25))) df.set(t, (df.get(t) ?? 0) + 1);
    // Every wording the product searches (recallQueryTexts: first person and, when it differs,
    // "the user"), each part merged per fact with its best score, as the fact store does.
    const ask = async (text: string, depths: readonly number[]): Promise<Map<number, StudyCandidate[]>> => {
      const wordings = recallQueryTexts(text);
      const byK = new Map<number, StudyCandidate[]>();
      for (const k of depths) {
        const topK = candidateDepth(k);
        const results = await index.queryMany(
          wordings.flatMap((data) => [
            { data, topK, queryMode: QueryMode.DENSE },
            { data, topK, queryMode: QueryMode.SPARSE },
            { data, topK, queryMode: QueryMode.SPARSE, weightingStrategy: WeightingStrategy.IDF },
          ]),
          { namespace },
        );
        const part = (j: number) => bestResults(results.filter((_, i) => i % 3 === j));
        byK.set(k, merge(part(0), part(1), part(2), ids));
      }
      return byK;
    };
    const info = (text: string, language: Language): StudyQueryInfo => {
      const terms = [...new Set(textTerms(recallQueryText(text), DEFAULT_BM25))];
      return {
        language,
        cjkShare: queryCjkShare(recallQueryText(text)),
        terms: terms.length,
        idfSum: terms.reduce((s, t) => s + idfWeight(facts.length, df.get(t) ?? 0), 0),
      };
    };
    for (const q of dataset.queries.filter((x) => x.persona === persona)) {
      out.push({ persona, query: q, ...info(q.text, q.language), byK: await ask(q.text, CUTOFFS) });
    }
    for (const u of dataset.unrelated) {
      const language: Language = /[\p{Script=Han}]/u.test(u.text) ? "zh" : "en";
      out.push({ persona, query: null, ...info(u.text, language), byK: await ask(u.text, [recallK]) });
    }
  }
  return out;
}

const best = (v: Variant, q: StudyQuery, k: number): number => Math.max(0, ...(q.byK.get(k) ?? []).map((c) => v.relevance(c, q)));

function rrfOrder(cs: readonly StudyCandidate[]): Map<string, number> {
  const score = new Map<string, number>();
  for (const part of ["dense", "sparse"] as const) {
    [...cs]
      .filter((c) => c[part] !== undefined)
      .sort((a, b) => (b[part] ?? 0) - (a[part] ?? 0))
      .forEach((c, rank) => {
        score.set(c.id, (score.get(c.id) ?? 0) + 1 / (60 + rank));
      });
  }
  return score;
}

function dbsfOrder(cs: readonly StudyCandidate[]): Map<string, number> {
  const score = new Map<string, number>();
  for (const part of ["dense", "sparse"] as const) {
    const values = cs.flatMap((c) => (c[part] === undefined ? [] : [c[part] ?? 0]));
    const n = values.length;
    const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, n);
    const sigma = n > 1 ? Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0;
    for (const c of cs) {
      if (c[part] === undefined) continue;
      const v = sigma > 0 ? ((c[part] ?? 0) - (mean - 3 * sigma)) / (6 * sigma) : 0.5;
      score.set(c.id, (score.get(c.id) ?? 0) + v);
    }
  }
  return score;
}

export type Gates = Record<Language, number>;

/** What `v` recalls for `q` at cutoff `k` with `gates`. */
function pick(v: Variant, q: StudyQuery, k: number, gates: Gates): string[] {
  const cs = q.byK.get(k) ?? [];
  const gate = gates[q.language];
  const rel = new Map(cs.map((c) => [c.id, v.relevance(c, q)]));
  if (best(v, q, k) < gate) return [];
  const floor = v.floorRatio > 0 ? Math.max(1e-9, gate * v.floorRatio) : Number.NEGATIVE_INFINITY;
  const kept = cs.filter((c) => (rel.get(c.id) ?? 0) >= floor);
  const key = v.order === "rrf" ? rrfOrder(kept) : v.order === "dbsf" ? dbsfOrder(cs) : rel;
  return kept
    .sort((a, b) => (key.get(b.id) ?? 0) - (key.get(a.id) ?? 0) || a.id.localeCompare(b.id))
    .slice(0, k)
    .map((c) => c.id);
}

/** The lowest gate with nothing recalled for at least 90% of `unrelated` (rounded up to 4 decimals). */
function calibrate(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const at = sorted[Math.ceil(0.9 * sorted.length) - 1] ?? 0;
  return Math.ceil((at + 1e-9) * 1e4) / 1e4;
}

function gatesFor(v: Variant, unrelated: readonly StudyQuery[], recallK: number): Gates {
  if (typeof v.fixedGate === "number") return { en: v.fixedGate, zh: v.fixedGate };
  if (v.fixedGate !== undefined) return v.fixedGate;
  if (!v.perScript) {
    const g = calibrate(unrelated.map((q) => best(v, q, recallK)));
    return { en: g, zh: g };
  }
  const of = (l: Language) => calibrate(unrelated.filter((q) => q.language === l).map((q) => best(v, q, recallK)));
  return { en: of("en"), zh: of("zh") };
}

export interface VariantFigures {
  gates: Gates;
  figures: Figures;
  abstained: number;
  /** By query language and for the queries sharing no content word with their answers. */
  subsets: Record<"en" | "zh" | "paraphrase" | "inflection", Figures>;
}

function measure(
  v: Variant,
  gates: Gates,
  related: readonly StudyQuery[],
  unrelated: readonly StudyQuery[],
  recallK: number,
): VariantFigures {
  const ranked: Ranked[] = related.map((q) => ({
    query: q.query as DatasetQuery,
    lists: Object.fromEntries(CUTOFFS.map((k) => [k, pick(v, q, k, gates)])) as Record<Cutoff, string[]>,
  }));
  const abstained = unrelated.filter((q) => pick(v, q, recallK, gates).length === 0).length / Math.max(1, unrelated.length);
  const subsets = {
    en: queryFigures(ranked.filter((r) => r.query.language === "en")),
    zh: queryFigures(ranked.filter((r) => r.query.language === "zh")),
    paraphrase: queryFigures(ranked.filter((r) => r.query.kind === "paraphrase")),
    inflection: queryFigures(ranked.filter((r) => r.query.kind === "inflection")),
  };
  return { gates, figures: queryFigures(ranked), abstained, subsets };
}

export interface VariantRow {
  name: string;
  all: VariantFigures;
  /** Calibrated on half 0, measured on half 1; and the other way round. */
  heldOut: [VariantFigures, VariantFigures];
}

export interface StudyResult {
  halves: readonly [readonly string[], readonly string[]];
  variants: VariantRow[];
  /** BM25 baselines (with and without stop words) on all personas and on each half. */
  baselines: { name: string; all: Figures; halves: [Figures, Figures] }[];
}

/** Every variant and the BM25 baselines on the collected queries. */
export function runStudy(
  study: readonly StudyQuery[],
  dataset: Dataset,
  recallK: number,
  variants: readonly Variant[] = VARIANTS,
): StudyResult {
  const related = (ps?: readonly string[]) => study.filter((q) => q.query && (!ps || ps.includes(q.persona)));
  const unrelated = (ps?: readonly string[]) => study.filter((q) => !q.query && (!ps || ps.includes(q.persona)));
  const [a, b] = HALVES;
  const rows = variants.map((v) => ({
    name: v.name,
    all: measure(v, gatesFor(v, unrelated(), recallK), related(), unrelated(), recallK),
    heldOut: [
      measure(v, gatesFor(v, unrelated(a), recallK), related(b), unrelated(b), recallK),
      measure(v, gatesFor(v, unrelated(b), recallK), related(a), unrelated(a), recallK),
    ] as [VariantFigures, VariantFigures],
  }));
  const bm25 = (name: string, terms: (t: string) => string[]) => {
    const indexes = new Map(
      dataset.personas.map((p) => [
        p.id,
        new Bm25Index(
          dataset.facts.filter((f) => f.persona === p.id),
          terms,
        ),
      ]),
    );
    const rank = (ps?: readonly string[]): Figures =>
      queryFigures(
        dataset.queries
          .filter((q) => !ps || ps.includes(q.persona))
          .map((q) => ({
            query: q,
            lists: Object.fromEntries(CUTOFFS.map((k) => [k, indexes.get(q.persona)?.search(q.text, k) ?? []])) as Record<Cutoff, string[]>,
          })),
      );
    return { name, all: rank(), halves: [rank(b), rank(a)] as [Figures, Figures] };
  };
  return { halves: HALVES, variants: rows, baselines: [bm25("bm25", bm25Terms), bm25("bm25-nostop", bm25TermsWithoutStopWords)] };
}

const n3 = (x: number): string => x.toFixed(3);
const pc = (x: number): string => `${(x * 100).toFixed(1)}%`;
const gateText = (g: Gates): string => (g.en === g.zh ? g.en.toFixed(4) : `${g.en.toFixed(3)}/${g.zh.toFixed(3)}`);

/** The study as a table: all personas, then held-out halves (figures on the half not fitted). */
export function formatStudy(s: StudyResult): string[] {
  const [a, b] = s.halves;
  const cols = [38, 13, 6, 6, 6, 6, 7, 22, 22];
  const line = (...cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(cols[i] ?? 8))
      .join(" ")
      .trimEnd();
  const out = [
    "",
    "gate and ordering variants (hybrid, dated, relevance only; gate = lowest abstaining on >= 90% of the fit personas' unrelated pairs):",
    `held-out: fit on A (${a.join(", ")}) -> measured on B (${b.join(", ")}), and B -> A; figures are recall@10 / abstention`,
    line("variant", "gate", "@1", "@5", "@10", "MRR", "abst", "A->B @10 / abst", "B->A @10 / abst"),
  ];
  for (const v of s.variants) {
    const f = v.all.figures;
    const ho = v.heldOut.map((h) => `${n3(h.figures.recall[10])} / ${pc(h.abstained)} (${gateText(h.gates)})`);
    out.push(
      line(
        v.name,
        gateText(v.all.gates),
        n3(f.recall[1]),
        n3(f.recall[5]),
        n3(f.recall[10]),
        n3(f.mrr),
        pc(v.all.abstained),
        ho[0] ?? "",
        ho[1] ?? "",
      ),
    );
  }
  for (const bl of s.baselines) {
    const f = bl.all;
    out.push(
      line(
        bl.name,
        "-",
        n3(f.recall[1]),
        n3(f.recall[5]),
        n3(f.recall[10]),
        n3(f.mrr),
        "0.0%",
        `${n3(bl.halves[0].recall[10])} on B`,
        `${n3(bl.halves[1].recall[10])} on A`,
      ),
    );
  }
  return out;
}
