/** A scripted fake of the summarizer port (src/memory/ports/llm.ts). */
import type { Summarizer, SummaryRequest } from "../../../src/memory/ports/llm.ts";
import type { SummaryMethod } from "../../../src/memory/model.ts";
import { clone } from "./shared.ts";

type SummaryStep = (
  request: SummaryRequest,
) => { text: string; method?: SummaryMethod } | Promise<{ text: string; method?: SummaryMethod }>;

/**
 * A summarizer that plays `steps` in order (the last one repeats); the default step joins the
 * previous summary and the messages. Every request is recorded.
 */
export class ScriptedSummarizer implements Summarizer {
  readonly requests: SummaryRequest[] = [];
  readonly #steps: SummaryStep[];

  constructor(...steps: SummaryStep[]) {
    this.#steps = steps.length > 0 ? steps : [joinSummary];
  }

  async summarize(request: SummaryRequest): Promise<{ text: string; method: SummaryMethod }> {
    this.requests.push(clone(request));
    const step = this.#steps[Math.min(this.requests.length - 1, this.#steps.length - 1)]!;
    const out = await step(request);
    return { text: out.text, method: out.method ?? "llm" };
  }
}

/** The previous summary plus one `role: content` line per message. */
export function joinSummary(request: SummaryRequest): { text: string } {
  const lines = request.previous ? [request.previous.text] : [];
  for (const m of request.messages) lines.push(`${m.role}: ${m.content}`);
  return { text: lines.join("\n") };
}
