/**
 * @module The query parts of a recall, one variant at a time: which wordings of a question a
 * hybrid index is asked with, on which part (DENSE, SPARSE), for bench/recall-parts.ts. A variant
 * is a plan from the question's first-person wording to the parts of its one query batch; the
 * store below runs that batch and merges it as the product's fact store does, so only the parts
 * differ between variants. Also the dataset's facts in the voice the learner writes them in
 * ("The user's husband Tomas teaches chemistry."), to measure what the third-person wording buys.
 */
import { QueryMode } from "@upstash/vector";
import { intentQueryText } from "../../../src/memory/facts/query-intents.ts";
import { thirdPersonText, unionWords } from "../../../src/memory/facts/recall-query.ts";
import type { FactMatches, FactQuery, FactScope } from "../../../src/memory/ports/facts.ts";
import { toUser } from "../../../src/llm/offline-learner/chinese.ts";
import { toThirdPerson } from "../../../src/llm/offline-learner/english-verbs.ts";
import { bestOf, candidatesOf, mergeParts } from "../../../src/stores/fact-candidates.ts";
import { CURRENT_FACTS_FILTER, allOf, scopeFilter, typeFilter } from "../../../src/stores/fact-filter.ts";
import type { VectorIndex } from "../../../src/stores/fact-index.ts";
import { scopeToNamespace } from "../../../src/stores/fact-namespace.ts";
import { VectorFactStore } from "../../../src/stores/facts-vector.ts";
import type { Dataset } from "../../data/recall/schema.ts";

/** One query of a recall's batch: a wording and the part of the hybrid index it searches. */
export interface PlannedPart {
  text: string;
  part: "dense" | "sparse";
}

/** The wordings of a question as the product forms them: first person, "the user" (or null when the same), the intent wording (or null). */
export interface Wordings {
  first: string;
  third: string | null;
  intent: string | null;
}

export function wordingsOf(first: string): Wordings {
  const third = thirdPersonText(first);
  return { first, third: third === first ? null : third, intent: intentQueryText(first) };
}

/** A variant: its name, what it changes, and its parts for a question's wordings. */
export interface PartsVariant {
  name: string;
  about: string;
  plan(w: Wordings): PlannedPart[];
}

const both = (text: string | null): PlannedPart[] =>
  text === null
    ? []
    : [
        { text, part: "dense" },
        { text, part: "sparse" },
      ];
const dense = (text: string | null): PlannedPart[] => (text === null ? [] : [{ text, part: "dense" }]);
const sparse = (text: string | null): PlannedPart[] => (text === null ? [] : [{ text, part: "sparse" }]);
/** The words of several wordings as one text (as the product's sparse query, `unionWords`). */
const unionText = (texts: readonly (string | null)[]): string => unionWords(texts.filter((t): t is string => t !== null));

/** The variants measured, "today" first (the baseline of every other row). */
export const PARTS_VARIANTS: readonly PartsVariant[] = [
  { name: "today", about: "every wording, dense and sparse", plan: (w) => [...both(w.first), ...both(w.third), ...both(w.intent)] },
  { name: "no third", about: 'without the "the user" wording', plan: (w) => [...both(w.first), ...both(w.intent)] },
  { name: "no intent", about: "without the intent wording", plan: (w) => [...both(w.first), ...both(w.third)] },
  { name: "first only", about: "the first-person wording alone", plan: (w) => both(w.first) },
  { name: "no sparse", about: "dense parts only", plan: (w) => [...dense(w.first), ...dense(w.third), ...dense(w.intent)] },
  {
    name: "no dense third",
    about: '"the user" wording sparse only',
    plan: (w) => [...both(w.first), ...sparse(w.third), ...both(w.intent)],
  },
  {
    name: "no sparse third",
    about: '"the user" wording dense only',
    plan: (w) => [...both(w.first), ...dense(w.third), ...both(w.intent)],
  },
  { name: "no dense intent", about: "intent wording sparse only", plan: (w) => [...both(w.first), ...both(w.third), ...sparse(w.intent)] },
  { name: "no sparse intent", about: "intent wording dense only", plan: (w) => [...both(w.first), ...both(w.third), ...dense(w.intent)] },
  {
    name: "one sparse",
    about: "every wording dense, one sparse query of all their words (the product's choice)",
    plan: (w) => [...dense(w.first), ...dense(w.third), ...dense(w.intent), ...sparse(unionText([w.third ?? w.first, w.intent]))],
  },
  {
    name: "first dense, one sparse",
    about: "first person dense, one sparse query of all the wordings' words",
    plan: (w) => [...dense(w.first), ...sparse(unionText([w.third ?? w.first, w.intent]))],
  },
  {
    name: "first+third dense, one sparse",
    about: 'first person and "the user" dense, one sparse query of all the wordings\' words',
    plan: (w) => [...dense(w.first), ...dense(w.third), ...sparse(unionText([w.third ?? w.first, w.intent]))],
  },
  {
    name: "first+intent dense, one sparse",
    about: "first person and intent dense, one sparse query of all the wordings' words",
    plan: (w) => [...dense(w.first), ...dense(w.intent), ...sparse(unionText([w.third ?? w.first, w.intent]))],
  },
];

/** Per recall: parts sent and distinct texts the index embeds densely (sparse parts are BM25 terms, no model). */
export interface PartsTally {
  recalls: number;
  parts: number;
  denseTexts: number;
  maxParts: number;
}

export const emptyTally = (): PartsTally => ({ recalls: 0, parts: 0, denseTexts: 0, maxParts: 0 });

/**
 * The product's fact store on a hybrid index with Worker fusion, except that a recall's batch is
 * the variant's plan for the question's wordings (rebuilt from `query.text`, the first-person
 * wording recall passes first), merged per fact and part as `VectorFactStore` merges its own.
 */
export class PlannedFactStore extends VectorFactStore {
  readonly #index: VectorIndex;
  readonly #variant: PartsVariant;
  readonly tally: PartsTally = emptyTally();

  constructor(index: VectorIndex, variant: PartsVariant) {
    super(index, { retrieval: "hybrid", fusion: "worker" });
    this.#index = index;
    this.#variant = variant;
  }

  override async query(scope: FactScope, query: FactQuery): Promise<FactMatches> {
    const parts = this.#variant.plan(wordingsOf(query.text));
    const namespace = scopeToNamespace(scope);
    const filter = allOf([typeFilter(query.types), scopeFilter(query.filter), CURRENT_FACTS_FILTER]);
    const common = { topK: query.topK, includeMetadata: true as const, ...(filter ? { filter } : {}) };
    this.tally.recalls += 1;
    this.tally.parts += parts.length;
    this.tally.maxParts = Math.max(this.tally.maxParts, parts.length);
    this.tally.denseTexts += new Set(parts.filter((p) => p.part === "dense").map((p) => p.text)).size;
    const batch = parts.map((p) => ({ ...common, data: p.text, queryMode: p.part === "dense" ? QueryMode.DENSE : QueryMode.SPARSE }));
    const results =
      batch.length === 1 ? [await this.#index.query(batch[0]!, { namespace })] : await this.#index.queryMany(batch, { namespace });
    const of = (part: "dense" | "sparse") => bestOf(results.filter((_, i) => parts[i]?.part === part).map((r) => candidatesOf(r, part)));
    return { scale: "hybrid", candidates: mergeParts(of("dense"), of("sparse")) };
  }
}

/**
 * A fact as the offline learner would store it: first person rewritten about "the user" with the
 * learner's own rules (`toThirdPerson`; Chinese `toUser`, 我 -> 用户), capitalized. A fact with no
 * first-person word ("Ida was born on the 2nd of August.") stays as it is.
 */
export function asLearned(text: string): string {
  if (/[\p{Script=Han}]/u.test(text)) return toUser(text);
  if (!/\b(?:i|i'm|i've|i'll|i'd|my|me|we|our|us|mine|ours)\b/iu.test(text)) return text;
  const out = toThirdPerson(text);
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/** The dataset with every fact in the learner's voice (queries unchanged: the user still asks "my"). */
export const learnedVoice = (dataset: Dataset): Dataset => ({
  ...dataset,
  facts: dataset.facts.map((f) => ({ ...f, text: asLearned(f.text) })),
});
