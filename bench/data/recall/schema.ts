import type { LearnedType as FactType } from "../../../src/memory/model.ts";

/** Language of a text: a CJK character anywhere makes it `zh`. */
export type Language = "en" | "zh";

/**
 * Oldest age a dataset fact of each type may have, in seconds: the lifetimes the memory design
 * states (fact about a year, preference half a year, context a week, temporary an hour). Its table
 * leaves `experience` out and gives every unlisted type a 30-day TTL, so experiences are dated
 * within 30 days.
 */
export const LIFETIME_SECONDS: Readonly<Record<FactType, number>> = {
  fact: 365 * 86_400,
  preference: 180 * 86_400,
  context: 7 * 86_400,
  temporary: 3_600,
  experience: 30 * 86_400,
};

/** How a persona file marks an importance that is not typical for the fact's type. */
export type Weight = "low" | "high";

/** One authored fact: a key unique within its persona, its type, its text, optionally a weight. */
export type FactSource = readonly [key: string, type: FactType, text: string, weight?: Weight];

/** One authored query and the keys of the facts that answer it (at least one). */
export type QuerySource = readonly [text: string, ...answers: string[]];

/** A persona as it is written by hand; dates and importances are drawn by the generator. */
export interface PersonaSource {
  /** Lower-case id, also the user id of the persona's facts. */
  id: string;
  /** Who the persona is, one line (for people reading the dataset). */
  about: string;
  facts: readonly FactSource[];
  queries: readonly QuerySource[];
  /** English queries that share no content word with their answers ("What do I do for a living?"). */
  paraphrases?: readonly QuerySource[];
  /**
   * Paraphrases written after the query-intent table (src/memory/facts/query-intents.ts) and never used
   * to tune it: the held-out check of that table, reported apart from `paraphrases`.
   */
  heldOutParaphrases?: readonly QuerySource[];
  /** Queries whose content words match their answers only in another inflection (grow / grew, allergy / allergic). */
  inflections?: readonly QuerySource[];
}

/** How a query relates to its answers beyond the paraphrase limit: no shared content word at all. */
export type QueryKind = "paraphrase" | "inflection" | "held-out-paraphrase";

export interface DatasetFact {
  /** `persona.key`, stable across regenerations. */
  id: string;
  persona: string;
  type: FactType;
  text: string;
  language: Language;
  /** 0..1, drawn from the typical range of the type (or the low / high range when weighted). */
  importance: number;
  /** Seconds before the benchmark's fixed "now" at which the fact was created. */
  ageSeconds: number;
}

export interface DatasetQuery {
  id: string;
  persona: string;
  text: string;
  language: Language;
  /** Ids of the facts that answer the query; all of them count for recall@k. */
  answers: string[];
  /** The query is in another language than every one of its answers. */
  crossLingual: boolean;
  /** Set for the queries that share no content word with their answers (see {@link QueryKind}). */
  kind?: QueryKind;
}

/** A query no stored fact answers: a memory recall should inject nothing for it. */
export interface UnrelatedQuery {
  id: string;
  text: string;
  language: Language;
}

export interface Dataset {
  description: string;
  seed: number;
  lifetimeSeconds: Readonly<Record<FactType, number>>;
  personas: { id: string; about: string }[];
  facts: DatasetFact[];
  queries: DatasetQuery[];
  unrelated: UnrelatedQuery[];
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export const languageOf = (text: string): Language => (CJK.test(text) ? "zh" : "en");
