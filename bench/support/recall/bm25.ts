import { ENGLISH_STOP_WORDS, isCjkStopTerm } from "../../../tools/upstash-local/vector/stop-words.ts";
import type { BenchFact, PersonaFacts, Retriever, RetrieverFactory } from "./retriever.ts";

/** BM25 parameters: term-frequency saturation and length normalization (the common defaults). */
export const BM25 = { k1: 1.5, b: 0.75 } as const;

const CJK_RUN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{N}\p{M}]+/gu;

/**
 * Terms of a text: NFKC and lower case; a run of letters and digits in a Latin (or any non-CJK)
 * script is one word (no stemming, no stop words); a CJK run yields its character bigrams, or the
 * character itself when the run is one character long.
 */
export function bm25Terms(text: string): string[] {
  const terms: string[] = [];
  for (const [run] of text.normalize("NFKC").toLowerCase().matchAll(TOKEN)) {
    if (!CJK_RUN.test(run)) {
      terms.push(run);
      continue;
    }
    const chars = Array.from(run);
    if (chars.length === 1) terms.push(run);
    for (let i = 0; i + 1 < chars.length; i += 1) terms.push(`${chars[i]}${chars[i + 1]}`);
  }
  return terms;
}

/**
 * {@link bm25Terms} without the stop words the emulator's BM25 model drops (English function words,
 * CJK terms made only of function characters): shows how much of the baseline's recall comes from
 * matching "my", "I" or "do".
 */
export const bm25TermsWithoutStopWords = (text: string): string[] =>
  bm25Terms(text).filter((t) => !ENGLISH_STOP_WORDS.has(t) && !isCjkStopTerm(t));

interface Doc {
  id: string;
  length: number;
  tf: Map<string, number>;
}

/** Okapi BM25 over one persona's fact texts, computed in process: the lexical baseline. */
export class Bm25Index {
  readonly #docs: Doc[];
  readonly #df = new Map<string, number>();
  readonly #avgLength: number;
  readonly #terms: (text: string) => string[];

  constructor(facts: readonly Pick<BenchFact, "id" | "text">[], terms: (text: string) => string[] = bm25Terms) {
    this.#terms = terms;
    this.#docs = facts.map((f) => {
      const terms = this.#terms(f.text);
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.#df.set(t, (this.#df.get(t) ?? 0) + 1);
      return { id: f.id, length: terms.length, tf };
    });
    this.#avgLength = this.#docs.reduce((s, d) => s + d.length, 0) / Math.max(1, this.#docs.length);
  }

  /**
   * Ids of the best `k` documents with a positive score, best first (ties by id). Each distinct
   * query term adds idf x tf (k1 + 1) / (tf + k1 (1 - b + b len / avgLen)), with the never-negative
   * idf = ln(1 + (N - n + 0.5) / (n + 0.5)).
   */
  search(query: string, k: number): string[] {
    const n = this.#docs.length;
    const terms = [...new Set(this.#terms(query))];
    const scored: { id: string; score: number }[] = [];
    for (const doc of this.#docs) {
      let score = 0;
      for (const term of terms) {
        const tf = doc.tf.get(term) ?? 0;
        if (tf === 0) continue;
        const df = this.#df.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * tf * (BM25.k1 + 1)) / (tf + BM25.k1 * (1 - BM25.b + (BM25.b * doc.length) / this.#avgLength));
      }
      if (score > 0) scored.push({ id: doc.id, score });
    }
    scored.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return scored.slice(0, k).map((s) => s.id);
  }
}

const bm25Named =
  (name: string, terms: (text: string) => string[]): RetrieverFactory =>
  () => {
    let index = new Bm25Index([], terms);
    const retriever: Retriever = {
      name,
      async setup(persona: PersonaFacts) {
        index = new Bm25Index(persona.facts, terms);
      },
      async recall(query: string, k: number) {
        return index.search(query, k);
      },
    };
    return retriever;
  };

/** `bm25`: plain BM25 over the same texts, in every index mode (it needs no index). */
export const bm25Retriever: RetrieverFactory = bm25Named("bm25", bm25Terms);

/** `bm25-nostop`: the same without stop words (informative: what function-word matches are worth). */
export const bm25NoStopRetriever: RetrieverFactory = bm25Named("bm25-nostop", bm25TermsWithoutStopWords);
