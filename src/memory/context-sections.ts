import type { TokenCounter } from "./ports.ts";
import { fitTextHead } from "./text-fit.ts";
import { MESSAGE_OVERHEAD_TOKENS } from "./window.ts";
import type { RecalledFact, Summary } from "./types.ts";

/** A synthetic system message of the context and what it costs. */
export interface Section {
  content: string;
  tokens: number;
}

/**
 * The summary as a labelled system message: its stored token count plus the label's. Cut to the
 * allowance (whole lines first) only when a small budget squeezes it; null when nothing fits.
 */
export function summarySection(
  summary: Summary,
  label: string,
  allowance: number,
  counter: TokenCounter,
): (Section & { truncated: boolean }) | null {
  const head = `${label}\n`;
  const frame = MESSAGE_OVERHEAD_TOKENS + counter.count(head);
  if (frame + summary.tokens <= allowance) return { content: head + summary.text, tokens: frame + summary.tokens, truncated: false };
  const fitted = fitTextHead(summary.text, allowance - frame, counter);
  if (fitted.text.trim() === "") return null;
  return { content: head + fitted.text, tokens: frame + fitted.tokens, truncated: true };
}

/**
 * Recalled facts as one system message: the label, then one "- fact" line each, in rank order
 * while they fit the allowance (a long fact is skipped, a shorter later one may still fit).
 */
export function factsSection(
  facts: readonly RecalledFact[],
  label: string,
  allowance: number,
  counter: TokenCounter,
): (Section & { included: RecalledFact[] }) | null {
  let content = label;
  let tokens = MESSAGE_OVERHEAD_TOKENS + counter.count(label);
  const included: RecalledFact[] = [];
  for (const recalled of facts) {
    const line = `\n- ${recalled.fact.text.replace(/\s+/g, " ").trim()}`;
    const lineTokens = counter.count(line);
    if (tokens + lineTokens > allowance) continue; // a shorter, lower-ranked fact may still fit
    content += line;
    tokens += lineTokens;
    included.push(recalled);
  }
  return included.length > 0 ? { content, tokens, included } : null;
}
