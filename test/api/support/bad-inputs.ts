import type { CallOptions } from "./helpers.ts";

/** One request that must be refused with a 4xx JSON error and change nothing. */
export interface BadInput {
  name: string;
  method: string;
  /** Path for the target session id. */
  path: (sessionId: string) => string;
  options?: Omit<CallOptions, "key" | "drain">;
  /** Exact status when it is not 400. */
  status?: number;
}

const ok = { role: "user", content: "hello" };
const messages = (sid: string): string => `/v1/sessions/${sid}/messages`;
const append = (name: string, body: unknown, more: { status?: number; env?: Record<string, string> } = {}): BadInput => ({
  name,
  method: "POST",
  path: messages,
  options: { body, env: more.env },
  status: more.status,
});
const raw = (name: string, text: string, headers: Record<string, string> = {}, status?: number): BadInput => ({
  name,
  method: "POST",
  path: messages,
  options: { raw: text, headers },
  status,
});

/** Identifiers that must never reach a key: separators, globs, spaces, unicode, traversal, empty, too long. */
export const BAD_IDS: [string, string][] = [
  ["colon", "a:b"],
  ["star", "a*b"],
  ["space", "a b"],
  ["unicode", "小明"],
  ["traversal", "../x"],
  ["empty", ""],
  ["200 characters", "x".repeat(200)],
  ["percent-encoded colon, literally", "a%3Ab"],
];

/** The same identifiers as they appear in a path (what a client would send). */
const PATH_IDS: [string, string][] = [
  ["colon", "a:b"],
  ["star", "a*b"],
  ["space", "a%20b"],
  ["unicode", encodeURIComponent("小明")],
  ["encoded traversal", "..%2Fx"],
  ["200 characters", "x".repeat(200)],
  ["URL-encoded colon", "a%3Ab"],
];

export const BAD_INPUTS: BadInput[] = [
  raw("malformed JSON", '{"messages": [{"role": "user", "content": "hi"}'),
  raw("empty body", ""),
  raw("text/plain body that is not JSON", "hello there", { "content-type": "text/plain" }, 415),
  raw("JSON null", "null"),
  append("body is an array", [ok]),
  append("body is a string", "hello"),
  append("body is a number", 42),
  append("messages missing", {}),
  append("messages not an array", { messages: ok }),
  append("messages empty", { messages: [] }),
  append("a message that is not an object", { messages: ["hello"] }),
  append("unknown role", { messages: [{ role: "bot", content: "beep" }] }),
  append("missing role", { messages: [{ content: "hello" }] }),
  append("content missing", { messages: [{ role: "user" }] }),
  append("content a number", { messages: [{ role: "user", content: 42 }] }),
  append("content null", { messages: [{ role: "user", content: null }] }),
  append("content empty", { messages: [{ role: "user", content: "" }] }),
  append("content whitespace only", { messages: [{ role: "user", content: " \n\t " }] }),
  append(
    "content over MAX_MESSAGE_CHARS",
    { messages: [{ role: "user", content: "x".repeat(101) }] },
    { status: 413, env: { MAX_MESSAGE_CHARS: "100" } },
  ),
  append("more than MAX_MESSAGES_PER_REQUEST", { messages: [ok, ok, ok, ok] }, { env: { MAX_MESSAGES_PER_REQUEST: "3" } }),
  append(
    "body over MAX_BODY_BYTES",
    { messages: [{ role: "user", content: "y".repeat(3000) }] },
    { status: 413, env: { MAX_BODY_BYTES: "2048" } },
  ),
  append("importance -1", { messages: [{ ...ok, importance: -1 }] }),
  append("importance 2", { messages: [{ ...ok, importance: 2 }] }),
  append('importance "high"', { messages: [{ ...ok, importance: "high" }] }),
  append("unknown field on a message", { messages: [{ ...ok, colour: "red" }] }),
  append("unknown top-level field", { messages: [ok], sessionId: "other" }),
  append("tool message without tool_call_id", { messages: [{ role: "tool", content: "42" }] }),
  append("tool_calls on a user message", {
    messages: [{ ...ok, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] }],
  }),
  append("duplicate message ids in one request", {
    messages: [
      { ...ok, id: "dup" },
      { ...ok, id: "dup", content: "again" },
    ],
  }),
  ...BAD_IDS.map(([name, id]) => append(`message id: ${name}`, { messages: [{ ...ok, id }] })),
  ...BAD_IDS.map(([name, userId]) => append(`userId: ${name}`, { messages: [ok], userId })),
  ...PATH_IDS.map(
    ([name, id]): BadInput => ({
      name: `session id in the path: ${name}`,
      method: "POST",
      path: () => messages(id),
      options: { body: { messages: [ok] } },
    }),
  ),
  {
    name: "session id in the path: empty",
    method: "POST",
    path: () => "/v1/sessions//messages",
    options: { body: { messages: [ok] } },
    status: 404,
  },
  {
    name: "session id in the path: ../x",
    method: "POST",
    path: () => "/v1/sessions/../x/messages",
    options: { body: { messages: [ok] } },
    status: 404,
  },
  ...["budget=0", "budget=-5", "budget=abc", "k=-1", "k=1000", "types=secret", "types=fact,secret", "userId=a:b"].map(
    (query): BadInput => ({ name: `context ${query}`, method: "GET", path: (sid) => `/v1/sessions/${sid}/context?${query}` }),
  ),
  ...[{ window: -1 }, { maxTokens: "100" }, { colour: 1 }, { ttlSeconds: 10 }, { keep: 1.5 }].map(
    (body): BadInput => ({
      name: `settings ${JSON.stringify(body)}`,
      method: "PUT",
      path: (sid) => `/v1/sessions/${sid}`,
      options: { body },
    }),
  ),
  { name: "DELETE keepSystem=maybe", method: "DELETE", path: (sid) => `/v1/sessions/${sid}?keepSystem=maybe` },
  { name: "note key with a colon", method: "PUT", path: (sid) => `/v1/sessions/${sid}/notes/a:b`, options: { body: { value: "v" } } },
  {
    name: "note value too long",
    method: "PUT",
    path: (sid) => `/v1/sessions/${sid}/notes/k`,
    options: { body: { value: "v".repeat(8193) } },
  },
  { name: "note value empty", method: "PUT", path: (sid) => `/v1/sessions/${sid}/notes/k`, options: { body: { value: "" } } },
  {
    name: "scratchpad entry not a string",
    method: "POST",
    path: (sid) => `/v1/sessions/${sid}/scratchpad`,
    options: { body: { entry: 5 } },
  },
];
