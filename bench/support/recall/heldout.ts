/**
 * @module The held-out table of the recall study: for each variant, abstention on unrelated queries
 * and hit@3 on related ones by query language, on everything (the figure a gate is tuned on) and on
 * the held-out halves (fitted on one half of personas and unrelated texts, measured on the other).
 */
import type { Figures } from "./metrics.ts";
import type { StudyResult, VariantFigures } from "./study.ts";

/** Width of the variant column. */
const NAME = 64;
const n3 = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? "  -  " : x.toFixed(3));
const cell = (f: VariantFigures): string => {
  const hit = (x: Figures) => n3(x.hit3);
  return `${n3(f.abstainedBy.en)} ${n3(f.abstainedBy.zh)} | ${hit(f.subsets.en)} ${hit(f.subsets.zh)}`;
};

/**
 * One line per variant: `abstention en zh | hit@3 en zh` on all pairs, then A -> B and B -> A
 * held out, then the worst held-out figure of each column (what the targets are checked on).
 */
export function formatHeldOut(s: StudyResult, names?: ReadonlySet<string>): string[] {
  const [a, b] = s.halves;
  const out = [
    "",
    `held-out gate check: fit on A (${a.join(", ")}; unrelated text half 0), measured on B (${b.join(", ")}; half 1), and B -> A.`,
    "cells: abstention on unrelated en zh | hit@3 of related en zh (an expected fact in the top 3 after the gate)",
    `${"variant".padEnd(NAME)} ${"all (tuned)".padEnd(27)} ${"A -> B".padEnd(27)} ${"B -> A".padEnd(27)} worst held-out`,
  ];
  for (const v of s.variants.filter((x) => !names || names.has(x.name))) {
    const [ab, ba] = v.heldOut;
    const worst = (pick: (f: VariantFigures) => number) => n3(Math.min(pick(ab), pick(ba)));
    const w = [
      worst((f) => f.abstainedBy.en),
      worst((f) => f.abstainedBy.zh),
      "|",
      worst((f) => f.subsets.en.hit3 ?? 0),
      worst((f) => f.subsets.zh.hit3 ?? 0),
    ].join(" ");
    out.push(`${v.name.slice(0, NAME).padEnd(NAME)} ${cell(v.all).padEnd(27)} ${cell(ab).padEnd(27)} ${cell(ba).padEnd(27)} ${w}`);
  }
  return out;
}
