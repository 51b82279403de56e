/** @module The ChatModel adapter for OpenAI-compatible APIs: completions, streams, proxy pass-through and model listing. */
import type OpenAI from "openai";
import { APIError } from "openai";
import type {
  ChatModel,
  ChatRequest,
  ChatUsage,
  ModelReply,
  PassThroughAnswer,
  PassThroughRequest,
  PassThroughStream,
} from "../memory/ports/index.ts";
import type { JsonObject } from "../memory/model.ts";
import { ReplyAssembler, replyFromCompletion } from "./chunk-reply.ts";
import { completeText } from "./complete.ts";
import { toLlmError } from "./errors.ts";
import { LlmError } from "../memory/errors.ts";
import { toOpenAIMessages } from "./messages.ts";

type CreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParams;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

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
    let yielded = false;
    for await (const chunk of this.#chunks({ ...this.#params(request), stream: true }, request.signal)) {
      const delta = chunk.choices?.[0]?.delta?.content;
      if (!delta) continue;
      yielded = true;
      yield delta;
    }
    if (!yielded) throw new LlmError("bad_output", "LLM returned an empty answer");
  }

  async completeRaw(request: PassThroughRequest): Promise<PassThroughAnswer> {
    const params = this.#passThrough(request, false);
    let response: unknown;
    try {
      response = await this.#client.chat.completions.create(params, request.signal ? { signal: request.signal } : undefined);
    } catch (err) {
      throw toLlmError(err, request.signal?.aborted ?? false);
    }
    const body: JsonObject = typeof response === "object" && response !== null ? (response as unknown as JsonObject) : {};
    return { body, reply: replyFromCompletion(body, params.model) };
  }

  streamRaw(request: PassThroughRequest): PassThroughStream {
    const params = this.#passThrough(request, true);
    const assembler = new ReplyAssembler(params.model);
    const chunks = (): AsyncIterable<Chunk> => this.#chunks(params, request.signal);
    return {
      async *[Symbol.asyncIterator]() {
        for await (const chunk of chunks()) {
          const json = chunk as unknown as JsonObject;
          yield { chunk: json, text: assembler.add(json) };
        }
      },
      reply: (): ModelReply => assembler.reply(),
    };
  }

  async models(): Promise<JsonObject> {
    try {
      const listed: unknown = await this.#client.get("/models");
      if (typeof listed === "object" && listed !== null && Array.isArray((listed as JsonObject).data)) return listed as JsonObject;
    } catch (err) {
      if (!(err instanceof APIError && err.status === 404)) throw toLlmError(err);
    }
    return { object: "list", data: [{ id: this.#options.model, object: "model", created: 0, owned_by: "agent-memory" }] };
  }

  /**
   * The chunks of one streamed request as the provider sends them. A stream that delivers nothing
   * for the idle timeout is cancelled with a `timeout`; the consumer's own pace does not count.
   */
  async *#chunks(params: CreateParams, callerSignal: AbortSignal | undefined): AsyncGenerator<Chunk> {
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
    try {
      arm();
      let stream: AsyncIterable<Chunk>;
      try {
        stream = await this.#client.chat.completions.create({ ...params, stream: true }, { signal: controller.signal });
      } catch (err) {
        throw toLlmError(err, !idle && (callerSignal?.aborted ?? false));
      }
      const iterator = stream[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<Chunk>;
        try {
          next = await iterator.next();
        } catch (err) {
          throw toLlmError(err, !idle && (callerSignal?.aborted ?? false));
        }
        if (next.done) break;
        disarm();
        yield next.value;
        arm();
      }
      // The SDK ends an aborted stream silently; say why it ended.
      if (idle) throw new LlmError("timeout", "LLM stream stalled");
      if (callerSignal?.aborted) throw new LlmError("aborted", "LLM request aborted by the caller");
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

  /**
   * The client's fields unchanged, memory's messages, the configured model, temperature and reply
   * length only where the client named none.
   */
  #passThrough<S extends boolean>(request: PassThroughRequest, stream: S): CreateParams & { model: string; stream: S } {
    const fields = request.fields;
    const defaults: JsonObject = {};
    if (fields.temperature === undefined && this.#options.temperature !== undefined) defaults.temperature = this.#options.temperature;
    if (fields.max_tokens === undefined && fields.max_completion_tokens === undefined && this.#options.maxTokens !== undefined) {
      defaults.max_tokens = this.#options.maxTokens;
    }
    const model = typeof fields.model === "string" && fields.model !== "" ? fields.model : this.#options.model;
    // The provider validates the fields it understands; they are its API, passed through as sent.
    const body = { ...defaults, ...fields, model, messages: toOpenAIMessages(request.messages), stream };
    return body as unknown as CreateParams & { model: string; stream: S };
  }
}
