import { normalizeFactText } from "../../../src/memory/facts/identity.ts";
import { ENGLISH_STOP_WORDS } from "../../../tools/upstash-local/vector/stop-words.ts";
import { LIFETIME_SECONDS, type Dataset } from "./schema.ts";

/**
 * Paraphrase rule: a query may not share a run of this many characters with any of its answers
 * (compared after NFKC, lower-casing and collapsing whitespace). Latin text spends about five
 * characters per word, so 12 is two words and a bit; Chinese carries a word in one or two
 * characters, so a CJK query may share at most 5 characters in a row (a name, a short term).
 */
export const MAX_SHARED_RUN = { en: 11, zh: 5 } as const;

const fold = (text: string): string => text.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim();

/** Length in code points of the longest common substring of `a` and `b` (dynamic programming, O(|a|·|b|)). */
export function longestSharedRun(a: string, b: string): number {
  const x = Array.from(fold(a));
  const y = Array.from(fold(b));
  let best = 0;
  let previous = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i += 1) {
    const current = new Array<number>(y.length + 1).fill(0);
    for (let j = 1; j <= y.length; j += 1) {
      if (x[i - 1] !== y[j - 1]) continue;
      const run = (previous[j - 1] ?? 0) + 1;
      current[j] = run;
      if (run > best) best = run;
    }
    previous = current;
  }
  return best;
}

/** Words that carry no content for the no-shared-word rule: the emulator's English stop words. */
const isContentWord = (word: string): boolean => !ENGLISH_STOP_WORDS.has(word);

/** Content words `a` and `b` share in exactly the same form (after folding; stop words left out). */
export function sharedContentWords(a: string, b: string): string[] {
  const words = (text: string): Set<string> => new Set((fold(text).match(/[\p{L}\p{N}]+/gu) ?? []).filter(isContentWord));
  const other = words(b);
  return [...words(a)].filter((w) => other.has(w));
}

/** Every way `dataset` breaks its own rules, empty when it keeps them all. */
export function datasetProblems(dataset: Dataset): string[] {
  const problems: string[] = [];
  const facts = new Map(dataset.facts.map((f) => [f.id, f]));
  if (facts.size !== dataset.facts.length) problems.push("fact ids are not unique");
  // The product keys a fact by its normalized text: two equal texts of one persona would be one fact.
  const texts = new Set(dataset.facts.map((f) => `${f.persona}\u0000${normalizeFactText(f.text)}`));
  if (texts.size !== dataset.facts.length) problems.push("two facts of one persona have the same normalized text");
  for (const fact of dataset.facts) {
    const limit = LIFETIME_SECONDS[fact.type];
    if (!(fact.ageSeconds >= 0 && fact.ageSeconds < limit)) {
      problems.push(`${fact.id}: age ${fact.ageSeconds} s outside 0..${limit} s`);
    }
    if (!(fact.importance >= 0 && fact.importance <= 1)) problems.push(`${fact.id}: importance outside 0..1`);
  }
  for (const query of dataset.queries) {
    if (query.answers.length === 0) problems.push(`${query.id}: no answers`);
    for (const id of query.answers) {
      const fact = facts.get(id);
      if (!fact) {
        problems.push(`${query.id}: unknown answer ${id}`);
        continue;
      }
      if (fact.persona !== query.persona) problems.push(`${query.id}: answer ${id} belongs to another persona`);
      if (query.kind !== undefined) {
        const shared = sharedContentWords(query.text, fact.text);
        if (shared.length > 0) problems.push(`${query.id} (${query.kind}): shares the word(s) ${shared.join(", ")} with ${id}`);
      }
      const run = longestSharedRun(query.text, fact.text);
      if (run > MAX_SHARED_RUN[query.language]) {
        problems.push(`${query.id}: shares ${run} characters in a row with ${id}`);
      }
    }
  }
  return problems;
}
