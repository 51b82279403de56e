import type OpenAI from "openai";
import type { ChatModel, ChatRequest, ChatUsage } from "../memory/ports.ts";
import { completeText } from "./complete.ts";
import { LlmError, toLlmError } from "./errors.ts";
import { toOpenAIMessages } from "./messages.ts";

export interface OpenAIChatModelOptions {
  /** Model used when a request names none. */
  model: string;
  /** Default sampling temperature. Default: unset (the provider's default). */
  temperature?: number | undefined;
  /** Default `max_tokens` of a reply. Default: unset (the provider's default). */
  maxTokens?: number | undefined;
  /**
   * A stream that delivers nothing for this long is cancelled and fails with a `timeout`
   * LlmError. The SDK's own timeout only covers the wait for the response headers.
   * Default: the client's timeout.
   */
  streamIdleTimeoutMs?: number | undefined;
}

/** Chat replies from an OpenAI-compatible API; every failure surfaces as an {@link LlmError}. */
export class OpenAIChatModel implements ChatModel {
  readonly #client: OpenAI;
  readonly #options: OpenAIChatModelOptions;

  constructor(client: OpenAI, options: OpenAIChatModelOptions) {
    this.#client = client;
    this.#options = options;
  }

  async complete(request: ChatRequest): Promise<{ content: string; model: string; usage: ChatUsage | null }> {
    const { content, model, usage } = await completeText(this.#client, this.#params(request), request.signal);
    return { content, model, usage };
  }

  async *stream(request: ChatRequest): AsyncIterable<string> {
    const callerSignal = request.signal;
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    if (callerSignal?.aborted) controller.abort();
    callerSignal?.addEventListener("abort", onAbort, { once: true });
    const idleMs = this.#options.streamIdleTimeoutMs ?? this.#client.timeout;
    let idle = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const disarm = (): void => {
      if (timer !== undefined) clearTimeout(timer);
    };
    const arm = (): void => {
      disarm();
      timer = setTimeout(() => {
        idle = true;
        controller.abort();
      }, idleMs);
    };
    let yielded = false;
    try {
      arm();
      let stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
      try {
        stream = await this.#client.chat.completions.create({ ...this.#params(request), stream: true }, { signal: controller.signal });
      } catch (err) {
        throw toLlmError(err, !idle && (callerSignal?.aborted ?? false));
      }
      const iterator = stream[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<OpenAI.Chat.Completions.ChatCompletionChunk>;
        try {
          next = await iterator.next();
        } catch (err) {
          throw toLlmError(err, !idle && (callerSignal?.aborted ?? false));
        }
        if (next.done) break;
        const delta = next.value.choices?.[0]?.delta?.content;
        if (!delta) continue;
        // The consumer's own pace (a slow client) must not count as provider idleness.
        disarm();
        yielded = true;
        yield delta;
        arm();
      }
      // The SDK ends an aborted stream silently; say why it ended.
      if (idle) throw new LlmError("timeout", "LLM stream stalled");
      if (callerSignal?.aborted) throw new LlmError("aborted", "LLM request aborted by the caller");
      if (!yielded) throw new LlmError("bad_output", "LLM returned an empty answer");
    } finally {
      disarm();
      callerSignal?.removeEventListener("abort", onAbort);
      // Cancels the provider request when the consumer stopped early (`break`); a no-op after the end.
      controller.abort();
    }
  }

  #params(request: ChatRequest): OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming {
    const temperature = request.temperature ?? this.#options.temperature;
    const maxTokens = request.maxTokens ?? this.#options.maxTokens;
    return {
      model: request.model ?? this.#options.model,
      messages: toOpenAIMessages(request.messages),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    };
  }
}
