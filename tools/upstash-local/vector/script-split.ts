/**
 * Splits a text by script for the `USE_LITE` dense model: the sentence model reads Latin-script
 * (English) text, the hashing embedder reads CJK text (Han, Kana, Hangul), which the sentence model
 * maps to one vector whatever it says. Each side's share of the text weighs its part of the vector.
 */

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/** A CJK character carries about this share of a word (most Chinese words are one or two characters). */
export const CJK_CHAR_WORDS = 0.6;

export interface ScriptParts {
  /** The text without its CJK runs (what the sentence model reads); "" when it has no words. */
  latin: string;
  /** The CJK runs, space-separated (what the hashing embedder reads); "" when there are none. */
  cjk: string;
  /** Share of the text's words on the Latin side, 0..1 (0.5 / 0.5 is a text half in each script). */
  latinShare: number;
}

/** Text -> its Latin-script and CJK parts and their shares (both 0 for a text with no words). */
export function splitScripts(text: string): ScriptParts {
  const normalized = text.normalize("NFKC");
  const cjkRuns = normalized.match(CJK_RUN) ?? [];
  const latin = normalized.replace(CJK_RUN, " ").replace(/\s+/g, " ").trim();
  const latinWords = latin.match(WORD)?.length ?? 0;
  const cjkWords = cjkRuns.reduce((n, run) => n + Array.from(run).length, 0) * CJK_CHAR_WORDS;
  const total = latinWords + cjkWords;
  return {
    latin: latinWords > 0 ? latin : "",
    cjk: cjkRuns.join(" "),
    latinShare: total > 0 ? latinWords / total : 0,
  };
}
