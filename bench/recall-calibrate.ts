/**
 * Calibrates recall's fusion and gates on an emulator dense model: asks every query of the committed
 * dataset (bench/data/recall) once per depth, then measures a grid of Worker-side fusions (dense
 * weight, dense zero point, sparse scale, floor ratio) and orders (calibrated relevance, RRF, DBSF
 * over the candidates), each with its gate calibrated to abstain on >= 90% of unrelated queries,
 * on all personas and on held-out halves (personas, and unrelated queries split by a hash of their
 * text: bench/support/recall/split.ts). Also the single-part (dense, sparse) gates, and the gate of a
 * query not about the user (`IMPERSONAL_SCRIPT_GATES`): the held-out table prints abstention and
 * hit@3 by language for the product's gates, today's gate (the baseline) and the calibrated rules.
 *
 *   npx tsx bench/recall-calibrate.ts [--dense-model USE_LITE|HASHING_WEIGHTED|HASHING] [--top 15]
 *
 * Prints figures only; the chosen values go into src/memory/facts/relevance.ts by hand (docs/recall.md).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Index } from "@upstash/vector";
import { DEFAULT_MEMORY_OPTIONS } from "../src/memory/options.ts";
import {
  DENSE_ZERO_COSINE,
  GATE_FLOOR_RATIO,
  HYBRID_DENSE_WEIGHTS,
  HYBRID_SCRIPT_GATES,
  hybridRelevance,
  IMPERSONAL_SCRIPT_GATES,
  SPARSE_SCALE,
} from "../src/memory/facts/relevance.ts";
import { startVectorEmulator } from "../tools/upstash-local/vector/standalone.ts";
import { parseDenseModel } from "../tools/upstash-local/vector/config.ts";
import type { Dataset } from "./data/recall/schema.ts";
import { BENCH_DENSE_MODEL } from "./support/recall/modes.ts";
import { collectStudy, PRODUCT_GATES, QUERY_GATES, type StudyCandidate, type Variant } from "./support/recall/variants.ts";
import { formatStudy, runStudy } from "./support/recall/study.ts";
import { formatHeldOut } from "./support/recall/heldout.ts";

const { values: flags } = parseArgs({ options: { "dense-model": { type: "string" }, top: { type: "string", default: "15" } } });
const denseModel = parseDenseModel(flags["dense-model"] ?? BENCH_DENSE_MODEL, "--dense-model");
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const dataset = JSON.parse(readFileSync(new URL("./data/recall/dataset.json", import.meta.url), "utf8")) as Dataset;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
/** Upstash's normalized cosine (1 + cos) / 2 -> relevance with `zero` as the cosine that counts as unrelated. */
const denseRel = (s: number | undefined, zero: number): number => (s === undefined ? 0 : clamp01((2 * s - 1 - zero) / (1 - zero)));
const sparseRel = (s: number | undefined, scale: number): number => (s !== undefined && s > 0 ? 1 - Math.exp(-s / scale) : 0);

function fused(w: number, zero: number, scale: number, floor: number, order: Variant["order"], perScript = false): Variant {
  return {
    name: `w ${w} zero ${zero} scale ${scale} floor ${floor}${order === "relevance" ? "" : ` ${order} order`}${perScript ? ", gate per script" : ""}`,
    relevance: (c: StudyCandidate) => w * denseRel(c.dense, zero) + (1 - w) * sparseRel(c.sparse, scale),
    floorRatio: floor,
    order,
    perScript,
  };
}

/** The calibration made on the hashing model (before the sentence model): w 0.5, zero 0, scale 4, floor 0.1, gate 0.24. */
const previous: Variant = {
  name: "previous defaults (w 0.5 zero 0 scale 4 floor 0.1) at gate 0.24",
  relevance: (c) => 0.5 * denseRel(c.dense, 0) + 0.5 * sparseRel(c.sparse, 4),
  floorRatio: 0.1,
  order: "relevance",
  fixedGate: 0.24,
};
const productName = `w en ${HYBRID_DENSE_WEIGHTS.latin} / zh ${HYBRID_DENSE_WEIGHTS.cjk} zero ${DENSE_ZERO_COSINE} scale ${SPARSE_SCALE} floor ${GATE_FLOOR_RATIO}`;
/** The product's relevance (weights by the query's CJK share) at its gates. */
const current: Variant = {
  name: `today's gates ${HYBRID_SCRIPT_GATES.latin} / ${HYBRID_SCRIPT_GATES.cjk}, every query alike (${productName})`,
  relevance: (c, q) => hybridRelevance(c.dense, c.sparse, q.cjkShare),
  floorRatio: GATE_FLOOR_RATIO,
  order: "relevance",
  fixedGate: PRODUCT_GATES,
};
/** The same relevance, gates calibrated in this run (one per query script, and one for both). */
const productCalibrated: Variant[] = [true, false].map((perScript) => ({
  name: `product relevance, ${perScript ? "gate per script" : "one gate"}, every query alike (${productName})`,
  relevance: (c: StudyCandidate, q: { cjkShare: number }) => hybridRelevance(c.dense, c.sparse, q.cjkShare),
  floorRatio: GATE_FLOOR_RATIO,
  order: "relevance" as const,
  perScript,
}));
/** The previous defaults (one weight 0.5 and one gate for both scripts). */
const single: Variant = {
  name: "previous defaults (w 0.5 zero 0.2 scale 8 floor 0.1) at gate 0.1213",
  relevance: (c) => 0.5 * denseRel(c.dense, 0.2) + 0.5 * sparseRel(c.sparse, 8),
  floorRatio: 0.1,
  order: "relevance",
  fixedGate: 0.1213,
};
/** The product's gates per query (`queryGate`): higher for a query not about the user. */
const queryGated: Variant = {
  ...current,
  name: `queryGate (impersonal ${IMPERSONAL_SCRIPT_GATES.latin} / ${IMPERSONAL_SCRIPT_GATES.cjk})`,
  fixedGate: QUERY_GATES,
};
/** Today's gates for queries about the user, a gate calibrated for the others (the rule behind queryGate). */
const impersonalRules: Variant[] = (["per-persona", "pooled"] as const).map((impersonal) => ({
  ...current,
  name: `today's gates + impersonal gate, ${impersonal}`,
  impersonal,
}));
const grid: Variant[] = [previous, single, current, queryGated, ...impersonalRules, ...productCalibrated];
for (const w of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) {
  for (const zero of [0, 0.1, 0.2, 0.3]) {
    for (const scale of [2, 4, 8]) {
      for (const floor of [0, 0.1, 0.3, 0.5]) grid.push(fused(w, zero, scale, floor, "relevance"));
      grid.push(fused(w, zero, scale, 0.1, "relevance", true));
    }
  }
}
// The dense part reads English with the sentence model and CJK by hashing: a dense weight per query script.
for (const en of [0.6, 0.7, 0.8]) {
  for (const zh of [0.2, 0.3, 0.4, 0.5]) {
    for (const zero of [0.1, 0.2]) {
      for (const scale of [4, 8]) {
        for (const perScript of [false, true]) {
          grid.push({
            name: `w en ${en} / zh ${zh} zero ${zero} scale ${scale} floor 0.1${perScript ? ", gate per script" : ""}`,
            relevance: (c: StudyCandidate, q) => {
              const w = q.language === "zh" ? zh : en;
              return w * denseRel(c.dense, zero) + (1 - w) * sparseRel(c.sparse, scale);
            },
            floorRatio: 0.1,
            order: "relevance",
            perScript,
          });
        }
      }
    }
  }
}
// ... and a zero point per script: the sentence model's unrelated cosines sit near 0.2, the hashing model's near 0.
for (const en of [0.5, 0.6, 0.7]) {
  for (const zh of [0.4, 0.5]) {
    for (const zeroEn of [0.1, 0.2]) {
      for (const scale of [4, 8]) {
        grid.push({
          name: `w en ${en} / zh ${zh} zero en ${zeroEn} / zh 0 scale ${scale} floor 0.1`,
          relevance: (c: StudyCandidate, q) => {
            const [w, zero] = q.language === "zh" ? [zh, 0] : [en, zeroEn];
            return w * denseRel(c.dense, zero) + (1 - w) * sparseRel(c.sparse, scale);
          },
          floorRatio: 0.1,
          order: "relevance",
        });
      }
    }
  }
}
for (const order of ["rrf", "dbsf"] as const) {
  for (const w of [0.4, 0.5, 0.6, 0.7]) grid.push(fused(w, 0, 4, 0.1, order), fused(w, 0.2, 4, 0, order));
}
for (const zero of [0, 0.1, 0.2, 0.3])
  grid.push({ name: `dense only, zero ${zero}`, relevance: (c) => denseRel(c.dense, zero), floorRatio: 0.1, order: "relevance" });
for (const scale of [2, 4, 8])
  grid.push({ name: `sparse only, scale ${scale}`, relevance: (c) => sparseRel(c.sparse, scale), floorRatio: 0.1, order: "relevance" });

const emulator = await startVectorEmulator({ index: { kind: "hybrid", denseModel } });
try {
  const index = new Index({ url: emulator.url, token: "local-dev-token", enableTelemetry: false });
  const started = Date.now();
  const study = await collectStudy(index, dataset, NOW, DEFAULT_MEMORY_OPTIONS.recallK);
  const result = runStudy(study, dataset, DEFAULT_MEMORY_OPTIONS.recallK, grid);
  const top = Number(flags.top);
  const checked = [current, queryGated, ...impersonalRules, ...productCalibrated].map((v) => v.name);
  const keep = new Set([
    previous.name,
    single.name,
    ...checked,
    ...productCalibrated.map((v) => v.name),
    ...[...result.variants]
      .filter((v) => v.all.abstained >= 0.9)
      .sort((a, b) => b.all.figures.recall[10] - a.all.figures.recall[10] || b.all.figures.mrr - a.all.figures.mrr)
      .slice(0, top)
      .map((v) => v.name),
    ...result.variants
      .filter((v) => v.name.startsWith("dense only") || v.name.startsWith("sparse only") || / (rrf|dbsf) order/.test(v.name))
      .map((v) => v.name),
  ]);
  console.log(
    `calibration: dense model ${denseModel}, ${study.length} query x persona pairs asked in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  const kept = result.variants.filter((v) => keep.has(v.name));
  console.log(formatStudy({ ...result, variants: kept }).join("\n"));
  console.log(formatHeldOut(result, new Set(checked)).join("\n"));
  console.log(
    "\nsubsets (all personas): recall@10 by query language; hit@3 and recall@10 of queries sharing no content word with their answers",
  );
  const n3 = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? "  -  " : x.toFixed(3));
  for (const v of kept) {
    const s = v.all.subsets;
    console.log(
      `${v.name.padEnd(48)} en ${n3(s.en.recall[10])}  zh ${n3(s.zh.recall[10])}  paraphrase hit@3 ${n3(s.paraphrase.hit3)} @10 ${n3(s.paraphrase.recall[10])}` +
        `  inflection hit@3 ${n3(s.inflection.hit3)} @10 ${n3(s.inflection.recall[10])}`,
    );
  }
} finally {
  await emulator.close();
}
