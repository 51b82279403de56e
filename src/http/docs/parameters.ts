/** @module Descriptions of every API parameter by where it travels and its name, shown in the API reference. */
/**
 * What the API reference shows beside the route schemas: a description of every parameter, by
 * where it travels and its name (a route's own `.openapi({ description })` wins). A route's
 * example request body is stated with the route (`example` of `defineRoute`). `redocly lint`
 * checks each example against its schema (`no-invalid-media-type-examples`) and fails on a
 * parameter without a description; `test/unit/http/openapi/responses.test.ts` fails on a body without
 * an example.
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
  "query:types": "Only these fact types, comma-separated: fact, preference, context, temporary, experience, episode",
  "query:type": "Alias of `types`",
  "query:minScore": "Recall only facts scoring at least this (0 to 1); default RECALL_MIN_SCORE",
  "query:keepSystem": "Keep the pinned system messages (`true`/`false`)",
  "query:force": "Compress even below the maxTokens threshold (`true`/`false`)",
  "query:offset": "Archived messages to skip",
  "query:limit": "Page size",
  "query:since": "Only entries after this time (epoch ms); the `nextSince` of the previous page",
  "query:cursor": "The `nextCursor` of the previous page; leave out for the first page",
  "header:x-memory-session":
    "The memory session of this conversation; without it, the `user` field's value (one continuing conversation per end user)",
  "header:x-memory-user": "The user whose long-term facts are recalled and learned; default: the `user` field (OpenAI's end-user id)",
  "header:idempotency-key": "A retry with the same key answers with the recorded reply and never calls the LLM again",
};
