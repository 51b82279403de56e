/** @module Produces the next rolling summary from the old one plus evicted messages, condensed or cut to the token cap. */
import { errorText } from "../errors.ts";
import { compressionRatio } from "./plan.ts";
import type { Summarizer, TokenCounter } from "../ports/llm.ts";
import { fitTextHead } from "../context/text-fit.ts";
import type { StoredMessage, Summary, SummaryMethod } from "../model.ts";

export interface RollingSummaryInput {
  summarizer: Summarizer;
  counter: TokenCounter;
  previous: Summary | null;
  /** The window prefix being folded in, oldest first. */
  prefix: StoredMessage[];
  maxTokens: number;
  /** Previous summary tokens plus prefix tokens, for the ratio. */
  tokensBefore: number;
  now: number;
  /** Told when a summary had to be condensed again or cut. */
  onWarning?: ((message: string, data: Record<string, unknown>) => void) | undefined;
}

/**
 * The next rolling summary (new = summarize(old + prefix)), verified against `maxTokens` with the
 * counter: as written when it fits, else condensed once more by the summarizer, else cut to fit.
 * A summarizer that throws or answers nothing yields `{ error }` and nothing else happens.
 */
export async function produceSummary(input: RollingSummaryInput): Promise<Summary | { error: string }> {
  const { summarizer, counter, previous, prefix, maxTokens } = input;
  const build = (text: string, method: SummaryMethod, tokens = counter.count(text)): Summary => ({
    text,
    tokens,
    method,
    version: (previous?.version ?? 0) + 1,
    covered: (previous?.covered ?? 0) + prefix.length,
    updatedAt: input.now,
    lastRatio: compressionRatio(tokens, input.tokensBefore),
  });

  let draft: Summary;
  try {
    const first = await summarizer.summarize({ previous, messages: prefix, maxTokens });
    const text = first.text.trim();
    if (text === "") return { error: "the summarizer returned an empty summary" };
    draft = build(text, first.method);
  } catch (error) {
    return { error: errorText(error) };
  }
  if (draft.tokens <= maxTokens) return draft;

  try {
    // No messages: the summarizer is asked to shorten the draft alone.
    const again = await summarizer.summarize({ previous: draft, messages: [], maxTokens });
    const text = again.text.trim();
    if (text !== "") draft = build(text, again.method);
  } catch (error) {
    input.onWarning?.("re-condensing the summary failed; cutting it instead", { error: errorText(error) });
  }
  if (draft.tokens <= maxTokens) return draft;

  input.onWarning?.("summary over its limit was cut", { tokens: draft.tokens, maxTokens });
  const cut = fitTextHead(draft.text, maxTokens, counter);
  if (cut.text.trim() === "") return { error: "the summary does not fit summaryMaxTokens" };
  return build(cut.text, draft.method, cut.tokens);
}
