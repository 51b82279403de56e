import type { LearnedType as FactType } from "../../../src/memory/model.ts";
import { prng } from "../../../test/support/prng.ts";
import { EMMA } from "./persona-emma.ts";
import { JIANGUO } from "./persona-jianguo.ts";
import { JIAYI } from "./persona-jiayi.ts";
import { KAI } from "./persona-kai.ts";
import { MARCUS } from "./persona-marcus.ts";
import { XIAOWEN } from "./persona-xiaowen.ts";
import { datasetProblems } from "./rules.ts";
import {
  LIFETIME_SECONDS,
  languageOf,
  type Dataset,
  type DatasetFact,
  type DatasetQuery,
  type PersonaSource,
  type QueryKind,
  type QuerySource,
  type Weight,
} from "./schema.ts";
import { UNRELATED_TASKS_EN } from "./unrelated-tasks-en.ts";
import { UNRELATED_TASKS_ZH } from "./unrelated-tasks-zh.ts";
import { UNRELATED_EN, UNRELATED_ZH } from "./unrelated.ts";

export const PERSONAS: readonly PersonaSource[] = [EMMA, MARCUS, XIAOWEN, JIANGUO, JIAYI, KAI];

/** Seed of the draws; changing it (or any persona) changes dataset.json, which the sanity test checks. */
export const DATASET_SEED = 20_250_601;

/** Importance ranges: what a type usually gets, and the ranges a `low` / `high` mark picks instead. */
const IMPORTANCE: Readonly<Record<FactType | Weight, readonly [number, number]>> = {
  fact: [0.5, 0.8],
  preference: [0.4, 0.7],
  experience: [0.4, 0.7],
  context: [0.4, 0.6],
  temporary: [0.4, 0.55],
  low: [0.1, 0.3],
  high: [0.85, 0.95],
};

/** Ages are drawn within this share of a type's lifetime, so no fact sits on its expiry edge. */
const AGE_SHARE: readonly [number, number] = [0.01, 0.97];

const DESCRIPTION =
  "Recall-quality dataset: hand-written personas (facts of all five types, queries that paraphrase their answers) " +
  "and queries no fact answers. Ages and importances are drawn by a seeded PRNG; see bench/data/recall/build.ts.";

/** The dataset, built from the persona files and the seed alone (no clock, no I/O). Throws if it breaks its rules. */
export function buildDataset(): Dataset {
  const random = prng(DATASET_SEED);
  const within = ([lo, hi]: readonly [number, number]): number => lo + (hi - lo) * random();
  const facts: DatasetFact[] = [];
  const queries: DatasetQuery[] = [];
  for (const persona of PERSONAS) {
    const keys = new Set<string>();
    for (const [key, type, text, weight] of persona.facts) {
      if (keys.has(key)) throw new Error(`${persona.id}: duplicate fact key ${key}`);
      keys.add(key);
      const ageSeconds = Math.round(within(AGE_SHARE) * LIFETIME_SECONDS[type]);
      const importance = Math.round(within(IMPORTANCE[weight ?? type]) * 100) / 100;
      const id = `${persona.id}.${key}`;
      facts.push({ id, persona: persona.id, type, text, language: languageOf(text), importance, ageSeconds });
    }
    const lists: [readonly QuerySource[], string, QueryKind | undefined][] = [
      [persona.queries, "q", undefined],
      [persona.paraphrases ?? [], "p", "paraphrase"],
      [persona.inflections ?? [], "i", "inflection"],
      [persona.heldOutParaphrases ?? [], "h", "held-out-paraphrase"],
    ];
    for (const [list, prefix, kind] of lists) {
      list.forEach(([text, ...answers], i) => {
        const language = languageOf(text);
        const ids = answers.map((key) => `${persona.id}.${key}`);
        const answerLanguages = ids.map((id) => facts.find((f) => f.id === id)?.language);
        const crossLingual = answerLanguages.every((l) => l !== undefined && l !== language);
        const id = `${persona.id}.${prefix}${String(i + 1).padStart(2, "0")}`;
        queries.push({ id, persona: persona.id, text, language, answers: ids, crossLingual, ...(kind ? { kind } : {}) });
      });
    }
  }
  // The task queries come last so the ids of the first unrelated queries stay as they were.
  const unrelated = [...UNRELATED_EN, ...UNRELATED_ZH, ...UNRELATED_TASKS_EN, ...UNRELATED_TASKS_ZH].map((text, i) => ({
    id: `u${String(i + 1).padStart(3, "0")}`,
    text,
    language: languageOf(text),
  }));
  const dataset: Dataset = {
    description: DESCRIPTION,
    seed: DATASET_SEED,
    lifetimeSeconds: LIFETIME_SECONDS,
    personas: PERSONAS.map((p) => ({ id: p.id, about: p.about })),
    facts,
    queries,
    unrelated,
  };
  const problems = datasetProblems(dataset);
  if (problems.length > 0) throw new Error(`the recall dataset breaks its rules:\n${problems.join("\n")}`);
  return dataset;
}

/** The committed file's exact text: one record per line (readable diffs), a final newline. */
export function serializeDataset(dataset: Dataset): string {
  const lines = Object.entries(dataset).map(([key, value]) => {
    if (!Array.isArray(value)) return `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    const records = value.map((record: unknown) => `    ${JSON.stringify(record)}`).join(",\n");
    return `  ${JSON.stringify(key)}: [\n${records}\n  ]`;
  });
  return `{\n${lines.join(",\n")}\n}\n`;
}
