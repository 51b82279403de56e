/**
 * @module What the domain needs from language models: summaries, fact extraction, chat (buffered, streamed, passed through) and token counting.
 */
import type { Fact, FactType, JsonObject, StoredMessage, Summary, SummaryMethod, ToolCall } from "../model.ts";

export interface SummaryRequest {
  previous: Summary | null;
  /** The messages to fold into the summary, oldest first. */
  messages: StoredMessage[];
  /** The summary must stay within this many tokens. */
  maxTokens: number;
}
/** Folds messages into the rolling summary. */
export interface Summarizer {
  summarize(request: SummaryRequest): Promise<{ text: string; method: SummaryMethod }>;
}
export type FactOperation =
  | { op: "add"; text: string; type: FactType; importance: number }
  | { op: "update"; id: string; text: string; type: FactType; importance: number }
  /** `text` replaces stored fact `id`: a new fact is added and `id` stops being true (kept in history, no longer recalled). */
  | { op: "supersede"; id: string; text: string; type: FactType; importance: number }
  | { op: "skip"; text: string };
/** Turns conversation messages into fact operations against the most similar existing facts. */
export interface FactExtractor {
  /** What produced the operations, with its version (e.g. the prompt's); recorded on each fact written as `metadata.learnedBy`. */
  readonly version?: string | undefined;
  extract(request: { messages: StoredMessage[]; existing: Fact[] }): Promise<FactOperation[]>;
}
/**
 * The relation a fact states, when it can hold one value at a time ("The user lives in Rome." ->
 * `user:home`): two current facts with one key cannot both be true.
 */
export interface RelationKeys {
  /** The single-valued relation key of a fact's text, or null (no relation read, or one that holds several values). */
  keyOf(text: string): string | null;
}
export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  name?: string | undefined;
  tool_calls?: StoredMessage["tool_calls"];
  tool_call_id?: string | undefined;
}
export interface ChatRequest {
  messages: ChatMessage[];
  model?: string | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  /** Cancels the request (e.g. the HTTP client went away); the model then stops generating. */
  signal?: AbortSignal | undefined;
}
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}
/**
 * A request passed through to the model: every field the client sent (`tools`, `tool_choice`,
 * `response_format`, `temperature`, `stream_options`, ...) unchanged, with memory's messages.
 */
export interface PassThroughRequest {
  /** The client's fields, without `messages` and `stream`. */
  fields: JsonObject;
  messages: ChatMessage[];
  signal?: AbortSignal | undefined;
}
/** The assistant message a model call produced, as memory stores it. */
export interface ModelReply {
  /** The text ("" when the reply only calls tools). */
  content: string;
  tool_calls?: ToolCall[] | undefined;
  finishReason: string | null;
  model: string;
  usage: ChatUsage | null;
}
/** A completion as the upstream sent it, and the reply it holds. */
export interface PassThroughAnswer {
  body: JsonObject;
  reply: ModelReply;
}
/** One streamed chunk as the upstream sent it, and the text it adds. */
export interface PassThroughChunk {
  chunk: JsonObject;
  /** Content text this chunk adds ("" for role, tool-call, finish and usage chunks). */
  text: string;
}
/** A stream of chunks; `reply()` is the assembled reply once iteration has ended. */
export interface PassThroughStream extends AsyncIterable<PassThroughChunk> {
  reply(): ModelReply;
}
/** A chat-completion model (OpenAI-compatible in production). Failures are `LlmError`s. */
export interface ChatModel {
  complete(request: ChatRequest): Promise<{ content: string; model: string; usage: ChatUsage | null }>;
  /** Yields content deltas in order. */
  stream(request: ChatRequest): AsyncIterable<string>;
  /** One completion of a passed-through request; the answer comes back as the upstream sent it. */
  completeRaw(request: PassThroughRequest): Promise<PassThroughAnswer>;
  /** The same, streamed: the upstream's chunks as it sent them (tool-call deltas, usage chunk). */
  streamRaw(request: PassThroughRequest): PassThroughStream;
  /** The upstream's model list as it sent it; the configured model alone when it has none (404). */
  models(): Promise<JsonObject>;
}
/** Counts tokens of untrusted text with a bounded worst case. */
export interface TokenCounter {
  count(text: string): number;
}
