/**
 * What the API reference shows beside the route schemas: a description of every parameter (by
 * where it travels and its name; a route's own `.openapi({ description })` wins) and an example
 * request body per operation that takes one (keyed like `OPERATION_DOCS`). `redocly lint` checks
 * each example against its schema (`no-invalid-media-type-examples`) and fails on a parameter
 * without a description; `test/unit/openapi-responses.test.ts` fails on a body without an example.
 */

export const PARAMETER_DOCS: Readonly<Record<string, string>> = {
  "path:sessionId": "The session id, chosen by the client (1-128 characters of A-Z a-z 0-9 _ . - @ +)",
  "path:userId": "The user whose long-term facts and sessions these are",
  "path:factId": "A fact's id, as `POST .../facts` answered it (it never changes)",
  "path:key": "The note's key",
  "path:traceId": "A trace id, as the `X-Memory-Trace-Id` header of a context read, chat turn or completion named it",
  "query:query": "Text to recall long-term facts for (usually the user's latest message)",
  "query:userId": "Whose long-term facts to recall; default: the session's user",
  "query:k": "How many facts to recall at most",
  "query:budget": "Token budget of the context; default CONTEXT_BUDGET",
  "query:types": "Only these fact types, comma-separated: fact, preference, context, temporary, experience",
  "query:type": "Alias of `types`",
  "query:minScore": "Recall only facts scoring at least this (0 to 1); default RECALL_MIN_SCORE",
  "query:keepSystem": "Keep the pinned system messages (`true`/`false`)",
  "query:force": "Compress even below the maxTokens threshold (`true`/`false`)",
  "query:offset": "Archived messages to skip",
  "query:limit": "Page size",
  "query:since": "Only entries after this time (epoch ms); the `nextSince` of the previous page",
  "query:cursor": "The `nextCursor` of the previous page; leave out for the first page",
  "header:x-memory-session": "The memory session of this conversation; without it, the `user` field's value (one continuing conversation per end user)",
  "header:x-memory-user": "The user whose long-term facts are recalled and learned; default: the `user` field (OpenAI's end-user id)",
  "header:idempotency-key": "A retry with the same key answers with the recorded reply and never calls the LLM again",
};

const S = "/v1/sessions/{sessionId}";
const F = "/v1/users/{userId}/facts";

export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  [`POST ${F}/import`]: {
    facts: [
      { text: "Lives in Berlin", type: "fact", importance: 0.7, createdAt: "2026-03-14T09:30:00Z" },
      { text: "Prefers window seats", type: "preference", createdAt: 1773480600000 },
    ],
  },
  [`POST /v1/tokens`]: { userId: "xiaoming", sessionId: "reference-demo", scopes: ["read", "chat"], ttlSeconds: 900 },
  [`POST ${S}/messages`]: {
    userId: "xiaoming",
    messages: [
      { id: "sys", role: "system", content: "You are a helpful assistant." },
      { id: "m1", role: "user", content: "I moved to Berlin last month", persist: true },
      { id: "m2", role: "assistant", content: "How do you like Berlin so far?" },
    ],
  },
  [`PUT ${S}`]: { maxTokens: 4000, keep: 10, window: null },
  [`PUT ${S}/notes/{key}`]: { value: "book a flight to Lisbon" },
  [`POST ${S}/scratchpad`]: { entry: "searched flights: 3 options under 500 EUR" },
  [`POST ${S}/chat`]: { message: "Where do I live?", messageId: "c1", userId: "xiaoming", stream: false },
  [`POST /v1/chat/completions`]: {
    model: "gpt-4o-mini",
    messages: [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "Where do I live?" },
    ],
  },
  [`POST ${F}`]: { text: "lives in Berlin", type: "fact", importance: 0.7 },
  [`PATCH ${F}/{factId}`]: { text: "lives in Lisbon", importance: 0.8 },
};
