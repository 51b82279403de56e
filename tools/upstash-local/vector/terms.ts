/** @module Text to BM25 terms: CJK bigrams or segmentation, word stemming and stop words, hashed to term ids. */
import { stemmer } from "stemmer";
import { hash32 } from "./hash.ts";
import { lightStem } from "./light-stem.ts";
import { CJK_STOP_WORDS, ENGLISH_STOP_WORDS, isCjkStopTerm } from "./stop-words.ts";

/**
 * How a run of CJK characters becomes BM25 terms:
 * - `bigrams`: every adjacent pair (a one-character run is its own term);
 * - `unigrams+bigrams`: every character and every adjacent pair;
 * - `segmenter`: dictionary words from `Intl.Segmenter` (built into Node and workerd, no package);
 * - a function, a custom segmenter (a benchmark can try one without changing the emulator).
 */
export type CjkTerms = "bigrams" | "unigrams+bigrams" | "segmenter" | ((run: string) => string[]);

/** How other words become terms: as they are, light stemming, or the Porter stemmer (`stemmer`). */
export type WordTerms = "plain" | "light-stem" | "porter";

export interface TermOptions {
  /**
   * @default "unigrams+bigrams": best Chinese recall in bench/sparse-tokenizers.ts (@1/@5 .55/.85,
   * against .45/.55 for bigrams alone and .50/.65 for Intl.Segmenter or segmentit words)
   */
  cjk: CjkTerms;
  /**
   * @default "porter": tied with "light-stem" on the same set (English @1/@5 .60/.75, plain words
   * .60/.70), and the stemming Upstash's own BM25 model applies
   */
  words: WordTerms;
  /** Drop English stop words and CJK terms made only of function characters (Upstash drops stop words). @default true */
  stopWords: boolean;
}

export const DEFAULT_TERM_OPTIONS: Readonly<TermOptions> = { cjk: "unigrams+bigrams", words: "porter", stopWords: true };

const CJK_MODES = ["bigrams", "unigrams+bigrams", "segmenter"] as const;
const WORD_MODES: readonly WordTerms[] = ["plain", "light-stem", "porter"];

export function parseCjkTerms(value: string, source: string): CjkTerms {
  const found = CJK_MODES.find((m) => m === value.trim().toLowerCase());
  if (!found) throw new Error(`${source} must be one of ${CJK_MODES.join(", ")}, got "${value}"`);
  return found;
}

export function parseWordTerms(value: string, source: string): WordTerms {
  const found = WORD_MODES.find((m) => m === value.trim().toLowerCase());
  if (!found) throw new Error(`${source} must be one of ${WORD_MODES.join(", ")}, got "${value}"`);
  return found;
}

export function resolveTermOptions(partial: Partial<TermOptions>): TermOptions {
  const cjk = partial.cjk ?? DEFAULT_TERM_OPTIONS.cjk;
  if (typeof cjk !== "function") parseCjkTerms(cjk, "bm25.cjk");
  const words = parseWordTerms(partial.words ?? DEFAULT_TERM_OPTIONS.words, "bm25.words");
  const stopWords = partial.stopWords ?? DEFAULT_TERM_OPTIONS.stopWords;
  if (typeof stopWords !== "boolean") throw new Error("bm25.stopWords must be a boolean");
  return { cjk, words, stopWords };
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{N}\p{M}]+/gu;
let segmenter: Intl.Segmenter | undefined;

function cjkTerms(run: string, mode: CjkTerms): string[] {
  if (typeof mode === "function") return mode(run);
  if (mode === "segmenter") {
    segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
    return [...segmenter.segment(run)].filter((s) => s.isWordLike !== false).map((s) => s.segment);
  }
  const chars = Array.from(run);
  if (chars.length === 1) return chars;
  const out: string[] = mode === "unigrams+bigrams" ? [...chars] : [];
  for (let i = 0; i + 1 < chars.length; i += 1) out.push(`${chars[i] ?? ""}${chars[i + 1] ?? ""}`);
  return out;
}

const stem = (word: string, mode: WordTerms): string => (mode === "plain" ? word : mode === "porter" ? stemmer(word) : lightStem(word));

/** The text's terms in order, repeats included (term frequency and document length count them). */
export function textTerms(text: string, options: TermOptions): string[] {
  const out: string[] = [];
  for (const match of text.normalize("NFKC").toLowerCase().matchAll(TOKEN)) {
    const token = match[0];
    if (CJK.test(token[0] ?? "")) {
      for (const term of cjkTerms(token, options.cjk)) {
        if (!options.stopWords || !(term.length <= 2 ? isCjkStopTerm(term) : CJK_STOP_WORDS.has(term))) out.push(term);
      }
      continue;
    }
    if (options.stopWords && ENGLISH_STOP_WORDS.has(token)) continue;
    out.push(stem(token, options.words));
  }
  return out;
}

/**
 * Term id: the 32-bit hash of the term with its top bit cleared, so every id is a valid
 * non-negative int32 index (Upstash's sparse indices are int32). With 2^31 ids, two distinct terms
 * of a 10,000-term vocabulary collide with probability about 2%, and then only share a dimension.
 */
export const termId = (term: string): number => hash32(term) & 0x7fffffff;
