/**
 * What the fake OpenAI server (fake-openai.ts) answers: its modes and scripts, how a chat answer's
 * text is made from the request, and the deterministic embeddings. Pure: no server here.
 */

export type FakeMode = "echo" | "summary" | "fixed" | "error" | "timeout" | "empty" | "garbage" | "tools";

/** A tool call the `tools` mode answers with. */
export interface FakeToolCall {
  name: string;
  arguments: string;
}

export interface FakeModeOptions {
  /**
   * `echo`: the last user message (or `tool result: <content>` when the request ends with a tool
   * result); `summary`: the first words of each input line; `fixed`: `text`; `tools`: calls the
   * `toolCalls` (default one `get_weather` call) with `content: null` and finish reason `tool_calls`,
   * streamed as tool-call deltas; `error`: an OpenAI-style error with `status`; `timeout`: answers
   * (as echo) only after `delayMs`; `empty`: an empty answer; `garbage`: `text` or a non-JSON
   * string. Content modes affect chat only.
   */
  mode: FakeMode;
  /** Calls of `tools` mode. */
  toolCalls?: FakeToolCall[] | undefined;
  /** Wait before answering, ms. Default 0; 60000 in `timeout` mode. */
  delayMs?: number | undefined;
  /** HTTP status in `error` mode. Default 500. */
  status?: number | undefined;
  /** Answer of `fixed` and `garbage` mode. */
  text?: string | undefined;
  /** Applies to the next `count` API requests only, then the previous mode returns. Default: until changed. */
  count?: number | undefined;
  /** Gap between streamed chunks, ms. Default 10. */
  chunkDelayMs?: number | undefined;
}

/** One scripted answer: a completion with `text`, or an OpenAI-style error with `status` and `message`. */
export interface ScriptedAnswer {
  text?: string | undefined;
  status?: number | undefined;
  message?: string | undefined;
}

/** Answers for chat requests whose prompt (the text of one of its messages) contains `match` ("" = every chat request). */
export interface FakeScript {
  match: string;
  answers: ScriptedAnswer[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export const MODES: readonly FakeMode[] = ["echo", "summary", "fixed", "error", "timeout", "empty", "garbage", "tools"];
export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (isObject(p) && typeof p.text === "string" ? p.text : "")).join("");
  return "";
}

export function messagesOf(body: Json): { role: string; text: string }[] {
  const list = Array.isArray(body.messages) ? body.messages : [];
  return list.filter(isObject).map((m) => ({ role: String(m.role), text: textOf(m.content) }));
}

/** First words of each user-message line; headers (`...:`), tags and `(...)` lines are skipped. */
export function fakeSummary(messages: { role: string; text: string }[]): string {
  const pieces: string[] = [];
  for (const m of messages.filter((x) => x.role === "user")) {
    for (const raw of m.text.split("\n")) {
      const line = raw.trim();
      if (!line || /:$/.test(line) || /^<\/?[\w-]+>$/.test(line) || /^\(.*\)$/.test(line)) continue;
      // A previous fake summary is already condensed: keep its pieces whole.
      if (line.startsWith("Summary: ")) pieces.push(...line.slice(9).split("; "));
      else pieces.push([...line.split(/\s+/).slice(0, 4).join(" ")].slice(0, 32).join(""));
    }
  }
  return `Summary: ${pieces.slice(0, 40).join("; ")}`;
}

/** Rough token estimate: one per CJK character, four other characters per token. */
export function tokensOf(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const ch of text) /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}/u.test(ch) ? cjk++ : other++;
  return cjk + Math.ceil(other / 4);
}

/** Cuts text to `max` estimated tokens, like a real model stopping at `max_tokens`. */
export function capTokens(text: string, max: number | undefined): { text: string; cut: boolean } {
  if (max === undefined || tokensOf(text) <= max) return { text, cut: false };
  let out = "";
  for (const ch of text) {
    if (tokensOf(out + ch) > max) break;
    out += ch;
  }
  return { text: out, cut: true };
}

/** Deterministic unit vector: hashed words and CJK bigrams, so similar texts get similar vectors. */
export function fakeEmbedding(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  const lower = text.toLowerCase();
  const features = [...(lower.match(/[\p{L}\p{N}]+/gu) ?? [])];
  const han = [...lower].filter((c) => /\p{Script=Han}/u.test(c));
  for (let i = 0; i < han.length; i++) features.push(han[i] + (han[i + 1] ?? ""));
  for (const f of features) {
    let h = 0x811c9dc5;
    for (let i = 0; i < f.length; i++) h = Math.imul(h ^ f.charCodeAt(i), 0x01000193) >>> 0;
    v[h % dims] = (v[h % dims] ?? 0) + (h & 0x80000000 ? -1 : 1);
  }
  if (features.length === 0) v[0] = 1;
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/** Why OpenAI would refuse the request's tool messages, or null: each answers the assistant call before it. */
export function orphanToolResult(body: Json): string | null {
  const list = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  let open = new Set<string>();
  for (const m of list) {
    if (m.role === "tool") {
      if (typeof m.tool_call_id !== "string" || !open.has(m.tool_call_id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'.`;
    } else if (m.role === "assistant" && Array.isArray(m.tool_calls)) {
      open = new Set(m.tool_calls.filter(isObject).map((c) => String(c.id)));
    } else open = new Set();
  }
  return null;
}

export function chatContent(mode: FakeModeOptions, body: Json): string {
  const messages = messagesOf(body);
  switch (mode.mode) {
    case "summary":
      return fakeSummary(messages);
    case "fixed":
      return mode.text ?? "";
    case "empty":
      return "";
    case "garbage":
      return mode.text ?? "}{ this is not JSON";
    case "tools":
      return "";
    default: {
      const last = messages.at(-1);
      if (last?.role === "tool") return `tool result: ${last.text}`;
      return [...messages].reverse().find((m) => m.role === "user")?.text ?? "";
    }
  }
}

export const DEFAULT_TOOL_CALLS: FakeToolCall[] = [{ name: "get_weather", arguments: '{"city":"Paris"}' }];

/** The calls of `tools` mode with fresh ids (as a provider makes them). */
export function toolCallsOf(mode: FakeModeOptions, id: number) {
  return (mode.toolCalls ?? DEFAULT_TOOL_CALLS).map((c, i) => ({
    id: `call_fake${id}_${i}`,
    type: "function",
    function: { name: c.name, arguments: c.arguments },
  }));
}

export function parseMode(body: unknown): FakeModeOptions | null {
  if (!isObject(body) || !MODES.includes(body.mode as FakeMode)) return null;
  const num = (k: string): number | undefined => (typeof body[k] === "number" ? body[k] : undefined);
  return {
    mode: body.mode as FakeMode,
    delayMs: num("delayMs"),
    status: num("status"),
    text: typeof body.text === "string" ? body.text : undefined,
    count: num("count"),
    chunkDelayMs: num("chunkDelayMs"),
    toolCalls: Array.isArray(body.toolCalls)
      ? body.toolCalls.filter(isObject).map((c) => ({ name: String(c.name ?? "tool"), arguments: String(c.arguments ?? "{}") }))
      : undefined,
  };
}

export function parseScript(body: unknown): FakeScript | null {
  if (!isObject(body) || !Array.isArray(body.answers)) return null;
  const answers: ScriptedAnswer[] = [];
  for (const a of body.answers) {
    if (!isObject(a)) return null;
    answers.push({
      text: typeof a.text === "string" ? a.text : undefined,
      status: typeof a.status === "number" ? a.status : undefined,
      message: typeof a.message === "string" ? a.message : undefined,
    });
  }
  return { match: typeof body.match === "string" ? body.match : "", answers };
}
