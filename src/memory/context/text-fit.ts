/** @module Cuts text to the longest head that fits a token count, whole lines first, never splitting a surrogate pair. */
import type { TokenCounter } from "../ports/llm.ts";

export interface FittedText {
  text: string;
  tokens: number;
  /** True when something was cut. */
  cut: boolean;
}

/** Largest n in [0, hi] with fits(n), given fits is monotone and fits(0) holds. */
function largest(hi: number, fits: (n: number) => boolean): number {
  let lo = 0;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Cut position at or before `at` that does not split a surrogate pair. */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at > 0 && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/**
 * The longest head of `text` that counts at most `maxTokens`: whole lines when possible, then
 * characters of the first line that does not fit. Counts with `counter`, so it never exceeds.
 */
export function fitTextHead(text: string, maxTokens: number, counter: TokenCounter): FittedText {
  const limit = Math.max(0, Math.floor(maxTokens));
  const full = counter.count(text);
  if (full <= limit) return { text, tokens: full, cut: false };

  const lines = text.split("\n");
  const head = (n: number) => lines.slice(0, n).join("\n");
  const wholeLines = largest(lines.length - 1, (n) => counter.count(head(n)) <= limit);
  const base = wholeLines > 0 ? `${head(wholeLines)}\n` : "";
  const next = lines[wholeLines] ?? "";
  const candidate = (n: number) => (n === 0 ? head(wholeLines) : base + next.slice(0, safeCut(next, n)));
  const chars = largest(next.length, (n) => counter.count(candidate(n)) <= limit);
  const fitted = candidate(chars);
  return { text: fitted, tokens: counter.count(fitted), cut: true };
}
