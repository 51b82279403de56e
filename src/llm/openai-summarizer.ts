/** @module The Summarizer adapter: folds evicted messages into the rolling session summary with an OpenAI-compatible model. */
import type OpenAI from "openai";
import { buildSummaryPrompt } from "../memory/compression/index.ts";
import type { ChatMessage, Summarizer, SummaryRequest } from "../memory/ports/index.ts";
import type { SummaryMethod } from "../memory/model.ts";
import { completeText } from "./complete.ts";
import { toOpenAIMessages } from "./messages.ts";

export interface OpenAISummarizerOptions {
  /** Chat model that writes the summaries. */
  model: string;
  /** Sampling temperature. Default 0.2: summaries should be faithful, not creative. */
  temperature?: number | undefined;
  /**
   * `max_tokens` is the request's `maxTokens` plus this share. Default 0.25: tokenizers differ,
   * and a summary cut off mid-sentence loses its tail silently, while one slightly too long is
   * simply condensed again by the caller.
   */
  headroom?: number | undefined;
  /** Builds the prompt from the request. Default: the domain's `buildSummaryPrompt`. */
  buildPrompt?: ((request: SummaryRequest) => ChatMessage[]) | undefined;
}

/**
 * Folds evicted messages into the rolling summary with an LLM. The prompt asks to stay within
 * `maxTokens` and `max_tokens` caps the answer a little above it; checking the exact count (and
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
    const messages = this.#options.buildPrompt
      ? this.#options.buildPrompt(request)
      : buildSummaryPrompt(request.previous, request.messages, request.maxTokens);
    const { content } = await completeText(this.#client, {
      model: this.#options.model,
      messages: toOpenAIMessages(messages),
      max_tokens: Math.max(1, Math.ceil(request.maxTokens * (1 + (this.#options.headroom ?? 0.25)))),
      temperature: this.#options.temperature ?? 0.2,
    });
    return { text: content.trim(), method: "llm" };
  }
}
