import type OpenAI from "openai";
import type { ChatMessage, Summarizer, SummaryRequest } from "../memory/ports.ts";
import type { SummaryMethod } from "../memory/types.ts";
import { completeText } from "./complete.ts";
import { toOpenAIMessages } from "./messages.ts";
import { buildSummaryMessages } from "./prompts.ts";

export interface OpenAISummarizerOptions {
  /** Chat model that writes the summaries. */
  model: string;
  /** Sampling temperature. Default 0.2: summaries should be faithful, not creative. */
  temperature?: number | undefined;
  /** Builds the prompt from the request. Default {@link buildSummaryMessages}. */
  buildPrompt?: ((request: SummaryRequest) => ChatMessage[]) | undefined;
}

/**
 * Folds evicted messages into the rolling summary with an LLM. `max_tokens` is the request's
 * `maxTokens`, so the answer cannot run far past the budget; checking the exact count (and
 * condensing again) is the caller's job, since only it knows the tokenizer.
 */
export class OpenAISummarizer implements Summarizer {
  readonly #client: OpenAI;
  readonly #options: OpenAISummarizerOptions;

  constructor(client: OpenAI, options: OpenAISummarizerOptions) {
    this.#client = client;
    this.#options = options;
  }

  /** @throws LlmError `bad_output` when the answer is empty, `timeout`/`upstream` when the call fails. */
  async summarize(request: SummaryRequest): Promise<{ text: string; method: SummaryMethod }> {
    const messages = (this.#options.buildPrompt ?? buildSummaryMessages)(request);
    const { content } = await completeText(this.#client, {
      model: this.#options.model,
      messages: toOpenAIMessages(messages),
      max_tokens: Math.max(1, Math.floor(request.maxTokens)),
      temperature: this.#options.temperature ?? 0.2,
    });
    return { text: content.trim(), method: "llm" };
  }
}
