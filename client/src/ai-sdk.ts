/** Memory for the Vercel AI SDK: a `wrapLanguageModel` middleware that recalls before each call and stores each turn after it. */
import type { LanguageModelMiddleware } from "ai";
import type { MemoryClient } from "./client.ts";
import type { FactRecall, MessageInput } from "./types.ts";

/** The kinds of fact the service stores. */
export type FactType = "fact" | "preference" | "context" | "temporary" | "experience";

/** Per-call overrides, passed as `providerOptions: { agentMemory: { ... } }` to `generateText` / `streamText`. */
export interface MemoryCallOptions {
  sessionId?: string | undefined;
  userId?: string | undefined;
}

export interface MemoryMiddlewareOptions {
  /** The client of the memory service (`createMemoryClient({ baseUrl, apiKey })`). */
  client: MemoryClient;
  /**
   * The conversation the turns are stored in. A call may name another with
   * `providerOptions.agentMemory.sessionId`; a call that names none where this is unset stores nothing.
   */
  sessionId?: string | undefined;
  /**
   * The user: whose long-term facts are recalled into the prompt, and who owns the session. A call
   * may name another with `providerOptions.agentMemory.userId`. Without a user nothing is recalled.
   */
  userId?: string | undefined;
  /**
   * Recall before each call: the facts most relevant to the user's latest message join the prompt
   * as a system message. `false` turns recall off.
   * @default {} (the service's recall size and relevance gate)
   */
  recall?: false | { k?: number | undefined; types?: readonly FactType[] | undefined; minScore?: number | undefined } | undefined;
  /**
   * Store each turn after the call: the user's latest message and the model's text reply are
   * appended to the session, where the service summarizes them and learns facts from them.
   * `false` makes the middleware read-only.
   * @default true
   */
  persist?: boolean | undefined;
  /**
   * Also keep every stored user message as a long-term fact at once (`persist: true` on the
   * append), instead of leaving it to the service's own extraction.
   * @default false
   */
  rememberUserMessages?: boolean | undefined;
  /**
   * Called when the memory service fails; the model call goes on without memory (recall) or the
   * turn stays unstored (store). Throw from it to fail the call instead.
   * @default logs a warning
   */
  onError?: ((error: unknown, stage: "recall" | "store") => void) | undefined;
  /**
   * Writes the system message that carries the recalled facts.
   * @default "Relevant memories about the user from earlier conversations:" and one line per fact
   */
  formatMemories?: ((facts: FactRecall["facts"]) => string) | undefined;
}

// The provider types, as the one type `ai` exports for middleware spells them.
type CallParams = Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0]["params"];
type Prompt = CallParams["prompt"];
type Content = Awaited<ReturnType<NonNullable<LanguageModelMiddleware["wrapGenerate"]>>>["content"][number];
type StreamPart =
  Awaited<ReturnType<NonNullable<LanguageModelMiddleware["wrapStream"]>>>["stream"] extends ReadableStream<infer P> ? P : never;

const defaultFormat = (facts: FactRecall["facts"]): string =>
  ["Relevant memories about the user from earlier conversations:", ...facts.map((f) => `- ${f.text}`)].join("\n");

const warn = (error: unknown, stage: "recall" | "store"): void => {
  console.warn(`agent-memory: ${stage} failed, the call goes on without it: ${error instanceof Error ? error.message : String(error)}`);
};

/** The text of a prompt message's text parts. */
function textOf(message: Prompt[number]): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => (part.type === "text" ? part.text : ""))
    .filter((t) => t !== "")
    .join("\n");
}

/** The latest message when it is the user's (a new turn; a call after tool results is not one). */
function newUserMessage(prompt: Prompt): string | null {
  const last = prompt[prompt.length - 1];
  if (last?.role !== "user") return null;
  const text = textOf(last).trim();
  return text === "" ? null : text;
}

const replyText = (content: readonly Content[]): string =>
  content
    .map((part) => (part.type === "text" ? part.text : ""))
    .join("")
    .trim();

function callIds(params: CallParams, options: MemoryMiddlewareOptions): { sessionId?: string | undefined; userId?: string | undefined } {
  const own = params.providerOptions?.agentMemory as MemoryCallOptions | undefined;
  return { sessionId: own?.sessionId ?? options.sessionId, userId: own?.userId ?? options.userId };
}

/** After the leading system messages: where a recalled-memory message goes. */
function withSystemMessage(prompt: Prompt, content: string): Prompt {
  let at = 0;
  while (at < prompt.length && prompt[at]!.role === "system") at++;
  return [...prompt.slice(0, at), { role: "system", content }, ...prompt.slice(at)];
}

/**
 * A middleware for `wrapLanguageModel` (AI SDK 6): before the call, the user's facts relevant to
 * their latest message join the prompt; after it, the turn (that message and the text reply) is
 * appended to the session, for `generateText` and `streamText` alike (a stream is stored when it
 * ends). The memory service failing never fails the call unless `onError` throws.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai("gpt-4o-mini"), middleware: memoryMiddleware({ client, sessionId, userId }) });
 * ```
 */
export function memoryMiddleware(options: MemoryMiddlewareOptions): LanguageModelMiddleware {
  const onError = options.onError ?? warn;
  const format = options.formatMemories ?? defaultFormat;

  async function store(params: CallParams, reply: string): Promise<void> {
    if (options.persist === false) return;
    const { sessionId, userId } = callIds(params, options);
    if (sessionId === undefined) return;
    const user = newUserMessage(params.prompt);
    const messages: MessageInput[] = [];
    if (user !== null) messages.push({ role: "user", content: user, ...(options.rememberUserMessages ? { persist: true } : {}) });
    if (reply !== "") messages.push({ role: "assistant", content: reply });
    if (messages.length === 0) return;
    try {
      await options.client.append(sessionId, messages, userId === undefined ? {} : { userId });
    } catch (err) {
      onError(err, "store");
    }
  }

  return {
    specificationVersion: "v3",

    async transformParams({ params }) {
      const { userId } = callIds(params, options);
      const query = newUserMessage(params.prompt);
      if (options.recall === false || userId === undefined || query === null) return params;
      let facts: FactRecall["facts"];
      try {
        const recall = options.recall ?? {};
        facts = (await options.client.facts(userId).recall(query, { k: recall.k, types: recall.types, minScore: recall.minScore })).facts;
      } catch (err) {
        onError(err, "recall");
        return params;
      }
      if (facts.length === 0) return params;
      return { ...params, prompt: withSystemMessage(params.prompt, format(facts)) };
    },

    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      await store(params, replyText(result.content));
      return result;
    },

    async wrapStream({ doStream, params }) {
      const { stream, ...rest } = await doStream();
      let text = "";
      let failed = false;
      const tap = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === "text-delta") text += part.delta;
          if (part.type === "error") failed = true;
          controller.enqueue(part);
        },
        // The stream ends once the turn is stored: a caller awaiting it sees the session up to date.
        async flush() {
          if (!failed) await store(params, text.trim());
        },
      });
      return { stream: stream.pipeThrough(tap), ...rest };
    },
  };
}
