/**
 * Deterministic offline text embedder, standing in for Upstash's hosted embedding models.
 *
 * Feature hashing: the text is NFKC-normalized and lowercased, then split into
 * - CJK runs (Han, Hiragana, Katakana, Hangul): every character (unigram) and every adjacent pair
 *   (bigram), because Chinese has no spaces and most words are one or two characters;
 * - other letter/digit runs (words): the word itself, plus character 3-grams of `^word$` so that
 *   inflections and typos still overlap.
 * Each feature is hashed into one of `dimension` buckets with a hash-derived sign (so collisions
 * cancel out on average rather than pile up), weighted by `1 + ln(tf)` (sublinear, so a repeated
 * word does not dominate) and a per-kind weight, and the vector is L2-normalized. Texts that share
 * words or characters therefore score higher than unrelated ones; it is not a semantic model.
 *
 * The weighted variant (`stopFeatures: true`, model `HASHING_WEIGHTED`) also scales features of
 * stop words and of CJK function characters by {@link STOP_FEATURE_WEIGHT}: without corpus
 * statistics (an embedding must not depend on the index), a fixed list is the stateless stand-in
 * for IDF, and it keeps "what", "did" or 的 from dominating the cosine.
 */

import { hash32 } from "./hash.ts";
import { CJK_STOP_CHARS, ENGLISH_STOP_WORDS, isCjkStopTerm } from "./stop-words.ts";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{N}\p{M}]+/gu;

/** Relative weights: whole words and CJK bigrams carry more meaning than sub-word pieces. */
const WEIGHT = { word: 1, trigram: 0.4, cjkUnigram: 0.6, cjkBigram: 1 } as const;

/** Factor applied to stop-word features by the weighted variant (chosen on bench/sparse-tokenizers.ts). */
export const STOP_FEATURE_WEIGHT = 0.15;

export interface EmbedOptions {
  /** Down-weight stop words and CJK function characters. @default false (the original embedder) */
  stopFeatures?: boolean;
}

/** Counts weighted features of a text: key = kind-prefixed feature, value = [count, weight]. */
export function extractFeatures(text: string, options: EmbedOptions = {}): Map<string, { count: number; weight: number }> {
  const features = new Map<string, { count: number; weight: number }>();
  const add = (key: string, weight: number): void => {
    const f = features.get(key);
    if (f) f.count += 1;
    else features.set(key, { count: 1, weight });
  };
  const stop = options.stopFeatures === true ? STOP_FEATURE_WEIGHT : 1;
  const normalized = text.normalize("NFKC").toLowerCase();
  for (const match of normalized.matchAll(TOKEN)) {
    const token = match[0];
    const chars = Array.from(token);
    if (CJK.test(chars[0] ?? "")) {
      chars.forEach((c, i) => {
        add(`u:${c}`, WEIGHT.cjkUnigram * (CJK_STOP_CHARS.has(c) ? stop : 1));
        const next = chars[i + 1];
        if (next !== undefined) add(`b:${c}${next}`, WEIGHT.cjkBigram * (isCjkStopTerm(`${c}${next}`) ? stop : 1));
      });
      continue;
    }
    const scale = ENGLISH_STOP_WORDS.has(token) ? stop : 1;
    add(`w:${token}`, WEIGHT.word * scale);
    const padded = ["^", ...chars, "$"];
    for (let i = 0; i + 3 <= padded.length; i += 1) add(`t:${padded.slice(i, i + 3).join("")}`, WEIGHT.trigram * scale);
  }
  return features;
}

/** Embeds a text into an L2-normalized vector of `dimension` values (all zeros if it has no words). */
export function embedText(text: string, dimension: number, options: EmbedOptions = {}): Float64Array {
  const out = new Float64Array(dimension);
  for (const [key, { count, weight }] of extractFeatures(text, options)) {
    const h = hash32(key);
    const sign = (hash32(`s:${key}`) & 1) === 0 ? 1 : -1;
    out[h % dimension] = (out[h % dimension] ?? 0) + sign * weight * (1 + Math.log(count));
  }
  let norm2 = 0;
  for (let i = 0; i < dimension; i += 1) norm2 += (out[i] ?? 0) ** 2;
  if (norm2 > 0) {
    const inv = 1 / Math.sqrt(norm2);
    for (let i = 0; i < dimension; i += 1) out[i] = (out[i] ?? 0) * inv;
  }
  return out;
}
