import type { Dataset, DatasetQuery, Language } from "../../data/recall/schema.ts";
import { Bm25Index, bm25Terms, bm25TermsWithoutStopWords } from "./bm25.ts";
import { CUTOFFS, queryFigures, type Cutoff, type Figures, type Ranked } from "./metrics.ts";
import { textHalf } from "./split.ts";
import { HALVES, VARIANTS, type Gates, type StudyCandidate, type StudyQuery, type StudyQueryInfo, type Variant } from "./variants.ts";

/**
 * Runs the recall variants (recall-variants.ts) on the collected queries: each variant's gates are
 * calibrated on unrelated queries, then it is measured at every cutoff; `formatStudy` prints it.
 */

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

/** The gate of `q`: its script's, or the larger impersonal one for a query not about the user. */
export function gateOf(gates: Gates, q: StudyQueryInfo): number {
  const gate = gates[q.language];
  return gates.impersonal && !q.aboutUser ? Math.max(gate, gates.impersonal[q.language]) : gate;
}

/** What `v` recalls for `q` at cutoff `k` with `gates`. */
function pick(v: Variant, q: StudyQuery, k: number, gates: Gates): string[] {
  const cs = q.byK.get(k) ?? [];
  const gate = gateOf(gates, q);
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

function baseGates(v: Variant, unrelated: readonly StudyQuery[], recallK: number): Gates {
  if (typeof v.fixedGate === "number") return { en: v.fixedGate, zh: v.fixedGate };
  if (v.fixedGate !== undefined) return v.fixedGate;
  if (!v.perScript) {
    const g = calibrate(unrelated.map((q) => best(v, q, recallK)));
    return { en: g, zh: g };
  }
  const of = (l: Language) => calibrate(unrelated.filter((q) => q.language === l).map((q) => best(v, q, recallK)));
  return { en: of("en"), zh: of("zh") };
}

function gatesFor(v: Variant, unrelated: readonly StudyQuery[], recallK: number): Gates {
  const gates = baseGates(v, unrelated, recallK);
  if (!v.impersonal) return gates;
  const impersonal = (l: Language): number => {
    const pairs = unrelated.filter((q) => q.language === l && !q.aboutUser);
    if (v.impersonal === "pooled") return calibrate(pairs.map((q) => best(v, q, recallK)));
    // every persona on its own: a user whose memories share a topic with the queries holds too
    const personas = [...new Set(pairs.map((q) => q.persona))];
    return Math.max(0, ...personas.map((p) => calibrate(pairs.filter((q) => q.persona === p).map((q) => best(v, q, recallK)))));
  };
  return { ...gates, impersonal: { en: impersonal("en"), zh: impersonal("zh") } };
}

export interface VariantFigures {
  gates: Gates;
  figures: Figures;
  abstained: number;
  /** Abstention on the unrelated queries of each script. */
  abstainedBy: Record<Language, number>;
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
  const abstainedOn = (qs: readonly StudyQuery[]): number =>
    qs.filter((q) => pick(v, q, recallK, gates).length === 0).length / Math.max(1, qs.length);
  const abstained = abstainedOn(unrelated);
  const abstainedBy = {
    en: abstainedOn(unrelated.filter((q) => q.language === "en")),
    zh: abstainedOn(unrelated.filter((q) => q.language === "zh")),
  };
  const subsets = {
    en: queryFigures(ranked.filter((r) => r.query.language === "en")),
    zh: queryFigures(ranked.filter((r) => r.query.language === "zh")),
    paraphrase: queryFigures(ranked.filter((r) => r.query.kind === "paraphrase")),
    inflection: queryFigures(ranked.filter((r) => r.query.kind === "inflection")),
  };
  return { gates, figures: queryFigures(ranked), abstained, abstainedBy, subsets };
}

export interface VariantRow {
  name: string;
  all: VariantFigures;
  /**
   * Calibrated on persona half 0 and unrelated text half 0, measured on the related queries of
   * persona half 1 and its unrelated queries of text half 1; and the other way round.
   */
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
  const unrelated = (ps?: readonly string[], half?: 0 | 1) =>
    study.filter((q) => !q.query && (!ps || ps.includes(q.persona)) && (half === undefined || textHalf(q.text) === half));
  const [a, b] = HALVES;
  const rows = variants.map((v) => ({
    name: v.name,
    all: measure(v, gatesFor(v, unrelated(), recallK), related(), unrelated(), recallK),
    heldOut: [
      measure(v, gatesFor(v, unrelated(a, 0), recallK), related(b), unrelated(b, 1), recallK),
      measure(v, gatesFor(v, unrelated(b, 1), recallK), related(a), unrelated(a, 0), recallK),
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
const gateText = (g: Gates): string =>
  (g.en === g.zh ? g.en.toFixed(4) : `${g.en.toFixed(3)}/${g.zh.toFixed(3)}`) +
  (g.impersonal ? ` +${g.impersonal.en.toFixed(3)}/${g.impersonal.zh.toFixed(3)}` : "");

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
    `held-out: fit on A (${a.join(", ")}; unrelated text half 0) -> measured on B (${b.join(", ")}; text half 1), and B -> A; figures are recall@10 / abstention`,
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
