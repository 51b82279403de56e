import type { FactType } from "../../../src/memory/model.ts";
import { CUTOFFS, type Cutoff, type Figures, type InjectionFigures } from "./metrics.ts";

export const DATINGS = ["dated", "undated"] as const;
export type Dating = (typeof DATINGS)[number];

/** One retriever's figures under one dating. */
export interface DatingFigures {
  overall: Figures;
  /** `en`, `zh` (by query language) and `cross-lingual` (the query is in another language than its answers). */
  byLanguage: Record<string, Figures>;
  /** Per type of the expected fact (see `answerFigures`). */
  byType: Partial<Record<FactType, Figures>>;
  injection: InjectionFigures | null;
}

export interface RetrieverResult {
  name: string;
  dated: DatingFigures;
  undated: DatingFigures;
  /** dated vs undated, in percent of undated (negative: dates cost recall). */
  gap: { recall: Record<Cutoff, number | null>; mrr: number | null };
}

/** Everything one run measured; `--json` prints it as it is. */
export interface BenchResult {
  mode: string;
  /** What the index reports about its dense and sparse sides (null: the index has none). */
  index: { dense: string | null; sparse: string | null };
  now: string;
  dataset: { personas: number; facts: number; queries: number; unrelated: number };
  defaults: { recallK: number; gate: string; margin: number };
  seconds: number;
  retrievers: RetrieverResult[];
}

const num = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : "  -  ");
const pct = (x: number | null): string => (x === null ? "   -  " : `${x >= 0 ? "+" : ""}${x.toFixed(1)}%`);
const share = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "-");
const WIDTHS = [12, 24, 7, 7, 7, 7, 5];
const row = (...cells: string[]): string =>
  cells
    .map((c, i) => c.padEnd(WIDTHS[i] ?? 8))
    .join(" ")
    .trimEnd();
const figureCells = (f: Figures): string[] => [...CUTOFFS.map((k) => num(f.recall[k])), num(f.mrr), String(f.n)];
const header = (second: string): string => row("retriever", second, ...CUTOFFS.map((k) => `@${k}`), "MRR", "n");

function injectionLines(result: BenchResult): string[] {
  const lines: string[] = [];
  for (const r of result.retrievers) {
    for (const dating of DATINGS) {
      const inj = r[dating].injection;
      if (!inj) continue;
      lines.push(
        `  ${r.name} ${dating}: abstains on ${share(inj.abstained)} of ${inj.unrelated} unrelated; injects something ` +
          `for ${share(inj.answered)} of ${inj.related} related, an expected fact for ${share(inj.hit)}`,
      );
    }
  }
  return lines.length > 0 ? ["", "context injection (default k and gate):", ...lines] : [];
}

/** The human-readable report: main table with gaps, context injection, breakdowns of `breakdownOf`. */
export function formatReport(result: BenchResult, breakdownOf: readonly string[]): string {
  const d = result.dataset;
  const out = [
    `recall quality: ${d.personas} personas, ${d.facts} facts, ${d.queries} queries, ` +
      `${d.unrelated} unrelated queries (asked of every persona)`,
    `index: ${result.mode} (dense: ${result.index.dense ?? "none"}; sparse: ${result.index.sparse ?? "none"}); ` +
      `"now" fixed at ${result.now}`,
    `product defaults: recallK ${result.defaults.recallK}, gate ${result.defaults.gate}, margin ${result.defaults.margin}`,
    "",
    header("dating"),
  ];
  for (const r of result.retrievers) {
    for (const dating of DATINGS) out.push(row(r.name, dating, ...figureCells(r[dating].overall)));
    out.push(row(r.name, "gap dated vs undated", ...CUTOFFS.map((k) => pct(r.gap.recall[k])), pct(r.gap.mrr)));
  }
  out.push("", "queries sharing no content word with their answers (dated; hit@3 = an expected fact in the top 3):");
  for (const r of result.retrievers) {
    const cells = (["paraphrase", "inflection"] as const).map((name) => {
      const f = r.dated.byLanguage[name];
      return f && f.n > 0 ? `${name} hit@3 ${num(f.hit3 ?? Number.NaN)} @10 ${num(f.recall[10])} (n ${f.n})` : `${name}: none`;
    });
    out.push(`  ${r.name.padEnd(12)} ${cells.join("; ")}`);
  }
  out.push(...injectionLines(result), "", "breakdown (by query language; by type of the expected fact):");
  out.push(header("dating / subset"));
  for (const r of result.retrievers.filter((x) => breakdownOf.includes(x.name))) {
    for (const dating of DATINGS) {
      const subsets = [...Object.entries(r[dating].byLanguage), ...Object.entries(r[dating].byType)];
      for (const [name, figures] of subsets) {
        if (figures) out.push(row(r.name, `${dating} ${name}`, ...figureCells(figures)));
      }
    }
  }
  out.push("", `took ${result.seconds.toFixed(1)} s`);
  return out.join("\n");
}
