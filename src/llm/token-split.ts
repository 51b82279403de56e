/**
 * Cuts untrusted text into pieces that are cheap to BPE-encode.
 *
 * js-tiktoken merges byte pairs in time quadratic in the length of one pre-token, so a long run
 * without a word boundary (`"_".repeat(10_000)`, a paste of Chinese without punctuation) costs
 * seconds of CPU. Counting the pieces separately and summing keeps the cost linear. Cuts go, in
 * order of preference, where the tokenizer's own pre-split would cut anyway (the count stays
 * exact), and otherwise hard, inside a run (the count may move by about one token per cut).
 */

export interface SplitLimits {
  /**
   * Longest stretch without a natural boundary, in UTF-8 bytes, before it is hard-cut. Default 64
   * (64 ASCII letters, 21 CJK characters). Encoding cost grows with the square of this number;
   * at 64 the worst case is about 3 us per input byte on a 2-core machine.
   */
  maxRunBytes: number;
  /**
   * Target size of one piece, in UTF-8 bytes, cut at natural boundaries only. Default 2048: large
   * enough that the per-call overhead of `encode` does not matter, and it does not change counts.
   */
  maxChunkBytes: number;
}

export const DEFAULT_SPLIT_LIMITS: Readonly<SplitLimits> = { maxRunBytes: 64, maxChunkBytes: 2048 };

const WHITESPACE = 0;
const LETTER = 1;
const DIGIT = 2;
const OTHER = 3;

const LETTER_CHAR = /^[\p{L}\p{M}]/u;
const DIGIT_CHAR = /^\p{N}/u;
const SPACE_CHAR = /^\s/u;

function classAt(text: string, i: number, code: number): number {
  if (code < 0x80) {
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return WHITESPACE;
    if (code >= 0x30 && code <= 0x39) return DIGIT;
    const lower = code | 0x20;
    return lower >= 0x61 && lower <= 0x7a ? LETTER : OTHER;
  }
  const ch = text.slice(i, code >= 0xd800 && code <= 0xdbff ? i + 2 : i + 1);
  if (LETTER_CHAR.test(ch)) return LETTER;
  if (DIGIT_CHAR.test(ch)) return DIGIT;
  return SPACE_CHAR.test(ch) ? WHITESPACE : OTHER;
}

function utf8Width(code: number): number {
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  return code >= 0xd800 && code <= 0xdbff ? 4 : 3;
}

/**
 * A cut before a character keeps the count exact when the tokenizer's pre-split (cl100k and
 * o200k patterns) always ends a piece there: before a space that follows a non-space, before
 * punctuation that follows a letter or digit, between letters and digits, and inside a digit run
 * every third digit (digits are pre-split in groups of up to three).
 */
function isNaturalBoundary(prev: number, cls: number, code: number, digitsBefore: number): boolean {
  if (code === 0x20) return prev !== WHITESPACE;
  if (cls === OTHER) return prev === LETTER || prev === DIGIT;
  if (cls === DIGIT) return prev === LETTER || (prev === DIGIT && digitsBefore % 3 === 0);
  return cls === LETTER && prev === DIGIT;
}

/** Splits `text` into consecutive pieces whose concatenation is `text`. */
export function splitForCounting(text: string, limits: Partial<SplitLimits> = {}): string[] {
  const maxRun = Math.max(8, Math.floor(limits.maxRunBytes ?? DEFAULT_SPLIT_LIMITS.maxRunBytes));
  const maxChunk = Math.max(maxRun, Math.floor(limits.maxChunkBytes ?? DEFAULT_SPLIT_LIMITS.maxChunkBytes));
  const pieces: string[] = [];
  let start = 0;
  let boundary = 0; // last natural boundary at or after start
  let run = 0; // bytes since the last boundary or cut
  let chunk = 0; // bytes since start
  let prev = -1;
  let digits = 0; // length of the digit run just before i
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff) continue; // low surrogate: counted with its pair, never cut before
    const cls = classAt(text, i, code);
    const width = utf8Width(code);
    if (i > start && isNaturalBoundary(prev, cls, code, digits)) {
      boundary = i;
      run = 0;
    }
    if (run > 0 && run + width > maxRun) {
      pieces.push(text.slice(start, i));
      start = boundary = i;
      run = chunk = 0;
    } else if (chunk + width > maxChunk && boundary > start) {
      pieces.push(text.slice(start, boundary));
      start = boundary;
      chunk = run;
    }
    run += width;
    chunk += width;
    digits = cls === DIGIT ? digits + 1 : 0;
    prev = cls;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}
