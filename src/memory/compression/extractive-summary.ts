/** @module Offline summarizer: builds the rolling summary from salient sentences of each message when no LLM is configured. */
import type { Summarizer, SummaryRequest, TokenCounter } from "../ports/llm.ts";
import { isSalient, splitSentences } from "../facts/salience.ts";
import { fitTextHead } from "../context/text-fit.ts";
import type { StoredMessage, SummaryMethod } from "../model.ts";

const MAX_SENTENCE_CHARS = 200;
/** Sentences taken from one message, by role; user statements carry the facts. */
const PICKS: Record<StoredMessage["role"], number> = { user: 2, assistant: 1, tool: 1, system: 0 };
/** Below this score an assistant or tool sentence is not worth a line. */
const MIN_OTHER_SCORE = 1;
const ROLE_WEIGHT: Record<StoredMessage["role"], number> = { user: 1, assistant: 0.4, tool: 0.2, system: 0 };

function clip(sentence: string): string {
  return sentence.length <= MAX_SENTENCE_CHARS ? sentence : `${sentence.slice(0, MAX_SENTENCE_CHARS - 1)}…`;
}

function scoreSentence(sentence: string, role: StoredMessage["role"], index: number, count: number): number {
  let score = ROLE_WEIGHT[role];
  if (isSalient(sentence).salient) score += 1;
  if (/\p{N}/u.test(sentence)) score += 0.5;
  // A capitalised word after the first one is likely a name, a place or a product.
  if (/\s[A-Z][\p{L}]+/u.test(sentence) || /[「『“"].+[」』”"]/u.test(sentence)) score += 0.5;
  if (index === 0) score += 0.3;
  if (index === count - 1 && count > 1) score += 0.2;
  return score;
}

/** The line one message contributes, or null when nothing in it stands out. */
function messageLine(message: StoredMessage, force: boolean): string | null {
  const sentences = splitSentences(message.content);
  if (sentences.length === 0 || PICKS[message.role] === 0) return null;
  const ranked = sentences
    .map((text, i) => ({ text, i, score: scoreSentence(text, message.role, i, sentences.length) }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const picked = ranked
    .slice(0, PICKS[message.role])
    .filter((s, rank) => (force || message.role === "user" ? rank === 0 || s.score >= 1.5 : s.score >= MIN_OTHER_SCORE))
    .sort((a, b) => a.i - b.i);
  if (picked.length === 0) return null;
  const who = message.role === "tool" ? "tool" : message.role;
  return `${who}: ${picked.map((s) => clip(s.text)).join(" ")}`;
}

/** Drops lines, oldest first, sparing lines with memory cues until only those are left. */
function dropOne(lines: string[]): void {
  const plain = lines.findIndex((line) => !isSalient(line).salient);
  lines.splice(Math.max(plain, 0), 1);
}

/**
 * Offline rolling summary: the previous summary's lines, then one line per message that says
 * something (user messages always; assistant and tool messages when a sentence has cues, numbers
 * or names), each prefixed by its role. Trimmed to `maxTokens` with the counter; never exceeds.
 */
export function extractiveSummary(request: SummaryRequest, counter: TokenCounter): string {
  const limit = Math.max(0, Math.floor(request.maxTokens));
  const previous = (request.previous?.text ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  let fresh = request.messages.map((m) => messageLine(m, false)).filter((l): l is string => l !== null);
  if (fresh.length === 0) fresh = request.messages.map((m) => messageLine(m, true)).filter((l): l is string => l !== null);

  // Later duplicates win so a repeated statement moves to its latest place.
  const lines: string[] = [];
  for (const line of [...previous, ...fresh]) {
    const at = lines.indexOf(line);
    if (at >= 0) lines.splice(at, 1);
    lines.push(line);
  }

  // Cheap pass on per-line counts first. A joining newline can merge with the punctuation before
  // it, so the lower bound subtracts one token per join; the exact pass then settles it.
  const tokens = new Map(lines.map((l) => [l, counter.count(l)]));
  const lowerBound = () => lines.reduce((sum, l) => sum + (tokens.get(l) ?? 0), 0) - Math.max(0, lines.length - 1);
  while (lines.length > 1 && lowerBound() > limit) dropOne(lines);
  while (lines.length > 1 && counter.count(lines.join("\n")) > limit) dropOne(lines);
  return fitTextHead(lines.join("\n"), limit, counter).text;
}

/** The `Summarizer` used when no LLM is configured. */
export class ExtractiveSummarizer implements Summarizer {
  readonly #counter: TokenCounter;

  constructor(counter: TokenCounter) {
    this.#counter = counter;
  }

  async summarize(request: SummaryRequest): Promise<{ text: string; method: SummaryMethod }> {
    return { text: extractiveSummary(request, this.#counter), method: "extractive" };
  }
}
