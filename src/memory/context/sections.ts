/** @module Summary and facts sections of the context: the labelled system messages, cut or filled to their token allowance. */
import type { TokenCounter } from "../ports/llm.ts";
import { fitTextHead } from "./text-fit.ts";
import { MESSAGE_OVERHEAD_TOKENS } from "./window.ts";
import type { FactType, RecalledFact, Summary } from "../model.ts";

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
 * The groups of the facts section, each with its header: preferences, facts, experiences, the
 * rest, then episodes (the user's own words, dated).
 */
export const FACT_GROUPS: readonly { header: string; types: readonly FactType[] }[] = [
  { header: "Preferences:", types: ["preference"] },
  { header: "Facts:", types: ["fact"] },
  { header: "Experiences:", types: ["experience"] },
  { header: "Other:", types: ["context", "temporary"] },
  { header: "What the user said (dated):", types: ["episode"] },
];

const OTHER_GROUP = 3;

const groupOf = (type: FactType): number => {
  const i = FACT_GROUPS.findIndex((g) => g.types.includes(type));
  return i < 0 ? OTHER_GROUP : i;
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "7 May 2023" (UTC): the day a message was said, in words a model and a reader both take in. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** One line of the section: "- text", or "- [7 May 2023] text" for an episode, so "when" can be answered. */
export function factLine(recalled: RecalledFact): string {
  const text = recalled.fact.text.replace(/\s+/g, " ").trim();
  return recalled.fact.type === "episode" ? `\n- [${dayOf(recalled.fact.createdAt)}] ${text}` : `\n- ${text}`;
}

/**
 * Recalled facts as one system message: the label, then per type group (preference -> fact ->
 * experience -> other -> episodes) one header and a line each. Learned facts are taken first, in
 * rank order, then episodes in rank order, while they fit the allowance (a long one is skipped, a
 * shorter later one may still fit; a group's header is paid for by its first line), then shown
 * grouped, each group in rank order; `included` lists them in the order they were taken.
 */
export function factsSection(
  facts: readonly RecalledFact[],
  label: string,
  allowance: number,
  counter: TokenCounter,
): (Section & { included: RecalledFact[] }) | null {
  let tokens = MESSAGE_OVERHEAD_TOKENS + counter.count(label);
  const groups: { recalled: RecalledFact; line: string }[][] = FACT_GROUPS.map(() => []);
  const ordered = [...facts.filter((r) => r.fact.type !== "episode"), ...facts.filter((r) => r.fact.type === "episode")];
  for (const recalled of ordered) {
    const group = groups[groupOf(recalled.fact.type)]!;
    const line = factLine(recalled);
    const header = group.length === 0 ? counter.count(`\n${FACT_GROUPS[groupOf(recalled.fact.type)]!.header}`) : 0;
    const lineTokens = counter.count(line) + header;
    if (tokens + lineTokens > allowance) continue; // a shorter, lower-ranked fact may still fit
    group.push({ recalled, line });
    tokens += lineTokens;
  }
  let content = label;
  const chosen = new Set<RecalledFact>();
  groups.forEach((group, i) => {
    if (group.length === 0) return;
    content += `\n${FACT_GROUPS[i]!.header}`;
    for (const { recalled, line } of group) {
      content += line;
      chosen.add(recalled);
    }
  });
  // Best first as they were taken (learned facts, then episodes), whatever group shows them.
  const included = ordered.filter((r) => chosen.has(r));
  return included.length > 0 ? { content, tokens, included } : null;
}
