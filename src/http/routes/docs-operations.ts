/**
 * What the API reference says about every operation: its `operationId` (the typed client's name for
 * it), its tag and a description. A route may set these itself in `createRoute`; what it leaves out
 * comes from this table, keyed by "METHOD path". `test/unit/openapi-document.test.ts` fails on any
 * operation that ends up without all three and on any row that matches no route, so a new route
 * cannot ship undocumented and a renamed one cannot leave a stale row.
 */

export const API_TAGS = [
  { name: "Messages", description: "Append to a session's short-term window and read the assembled context." },
  { name: "Chat", description: "Chat turns with memory: the native endpoint and an OpenAI-compatible proxy." },
  { name: "Sessions", description: "Session state, per-session settings, reset, compression and the archive of summarized messages." },
  { name: "Working memory", description: "Per-session notes (key/value) and a scratchpad, with a short TTL of their own." },
  { name: "Facts", description: "Long-term facts of a user: add, recall by meaning, list, change, delete." },
  { name: "Users", description: "Everything stored about a user: export page by page, erase everywhere." },
  { name: "Observability", description: "Per-turn traces of what memory injected and why, and the tenant's metrics." },
  { name: "Service", description: "Health of the service and its upstreams." },
  { name: "Access", description: "Short-lived user tokens for browser frontends and the tenant's audit log." },
] as const;

export type ApiTag = (typeof API_TAGS)[number]["name"];

export interface OperationDoc {
  operationId: string;
  tag: ApiTag;
  description: string;
}

const S = "/v1/sessions/{sessionId}";
const F = "/v1/users/{userId}/facts";

export const OPERATION_DOCS: Readonly<Record<string, OperationDoc>> = {
  [`POST ${S}/messages`]: {
    operationId: "appendMessages",
    tag: "Messages",
    description:
      "Appends messages to the session window in one atomic step. Client message ids make retries idempotent; a system message is pinned; `persist: true` on a user message also queues it as a long-term fact. Compression is scheduled in the background when the window passes `maxTokens`.",
  },
  [`GET ${S}/context`]: {
    operationId: "getContext",
    tag: "Messages",
    description:
      "The messages to send to an LLM, within a token budget: pinned system messages, the rolling summary, long-term facts recalled for `query` (when one is given and something relevant is found), then the newest window messages. Recalled facts are never written back to the window.",
  },
  [`GET ${S}`]: { operationId: "getSession", tag: "Sessions", description: "The session's settings, stats, summary, pinned system messages and one page of its window (`offset` from the oldest message, `limit` up to 1000, default 200; `page.next` is the next offset)." },
  [`PUT ${S}`]: {
    operationId: "updateSessionSettings",
    tag: "Sessions",
    description: "Changes per-session settings. Fields left out keep their value; `null` returns a field to the configured default.",
  },
  [`DELETE ${S}`]: {
    operationId: "resetSession",
    tag: "Sessions",
    description: "Resets the session like a `/clear` command; `keepSystem=true` keeps the pinned system messages.",
  },
  [`POST ${S}/compress`]: {
    operationId: "compressSession",
    tag: "Sessions",
    description: "Compresses now instead of in the background. Below the `maxTokens` threshold nothing happens unless `force=true`.",
  },
  [`GET ${S}/history`]: {
    operationId: "getSessionHistory",
    tag: "Sessions",
    description: "The rolling summary and the archived original messages it replaced, oldest first, paged by `offset` and `limit`.",
  },
  [`GET ${S}/notes`]: { operationId: "listNotes", tag: "Working memory", description: "Every note of the session as a key/value map." },
  [`DELETE ${S}/notes`]: { operationId: "clearNotes", tag: "Working memory", description: "Deletes every note of the session." },
  [`PUT ${S}/notes/{key}`]: { operationId: "setNote", tag: "Working memory", description: "Sets one note; refreshes the working-memory TTL." },
  [`GET ${S}/notes/{key}`]: { operationId: "getNote", tag: "Working memory", description: "One note's value; 404 when it is not set." },
  [`DELETE ${S}/notes/{key}`]: { operationId: "deleteNote", tag: "Working memory", description: "Deletes one note." },
  [`POST ${S}/scratchpad`]: { operationId: "appendScratchpad", tag: "Working memory", description: "Appends one entry to the session's scratchpad." },
  [`GET ${S}/scratchpad`]: { operationId: "getScratchpad", tag: "Working memory", description: "The scratchpad's entries, oldest first." },
  [`DELETE ${S}/scratchpad`]: { operationId: "clearScratchpad", tag: "Working memory", description: "Deletes the scratchpad." },
  [`POST ${S}/chat`]: {
    operationId: "chat",
    tag: "Chat",
    description:
      "One chat turn: stores the user message, assembles the context, calls the LLM and stores the reply. With `stream: true` the answer is `text/event-stream`: `event: delta` per chunk, then `event: done` with the stored reply and what memory injected, or `event: error`.",
  },
  [`POST /v1/chat/completions`]: {
    operationId: "createChatCompletion",
    tag: "Chat",
    description:
      "OpenAI-compatible chat completions with memory: point any OpenAI SDK here. The `user` field (OpenAI's end-user id) names the memory user (`X-Memory-User` overrides it), the session comes from `X-Memory-Session` (default: the `user` value); `X-Memory-Persist: true` or `persist` on the last user message keeps it as a fact; earlier messages already in memory are not stored twice, nor is a message an SDK retries after a failure.",
  },
  [`POST ${F}`]: {
    operationId: "addFact",
    tag: "Facts",
    description: "Stores a long-term fact. The id is a hash of the normalized text, so the same text twice is one fact (200 instead of 201). `createdAt` (epoch ms or ISO 8601, not in the future) dates an imported fact back.",
  },
  [`POST ${F}/import`]: {
    operationId: "importFacts",
    tag: "Facts",
    description:
      "Imports up to 100 facts `{text, type?, importance?, createdAt?, metadata?}` in one Vector upsert, for migrating memories from another system. `createdAt` (epoch ms or ISO 8601, not in the future) keeps the original time, from which the type's lifetime runs. Same identity as single writes: a text already stored (or repeated in the batch) refreshes that fact. Answers the ids in order and how many were new.",
  },
  [`GET ${F}`]: {
    operationId: "searchFacts",
    tag: "Facts",
    description:
      "With `query`: recall, relevance first; `minScore` is the relevance gate (0..1, 0 = unrelated; default: calibrated per `VECTOR_INDEX`), importance, use and recency only break near-ties within `RECALL_MARGIN`. Without: every fact, paged with `cursor` and `limit` (`nextCursor` is null on the last page). " +
      "Both take filters, combined with AND: `types`, `agentId` (that agent's facts and the shared ones), `createdAfter` (inclusive), `createdBefore` (exclusive) and " +
      "`metadata.<key>=<value>` (equality on a scalar metadata value, up to 8 keys; `3` and `true` also match the number and the boolean). " +
      "A list filters each page after reading it, so a page may hold fewer than `limit` facts while `nextCursor` leads on. Unknown parameters, a raw `filter` string included, answer 400.",
  },
  [`GET ${F}/{factId}`]: { operationId: "getFact", tag: "Facts", description: "One fact with its type, importance, timestamps and access stats." },
  [`PATCH ${F}/{factId}`]: {
    operationId: "updateFact",
    tag: "Facts",
    description: "Changes a fact's text, type, importance or metadata; a new text keeps the old one in the fact's history.",
  },
  [`DELETE ${F}/{factId}`]: { operationId: "deleteFact", tag: "Facts", description: "Deletes one fact." },
  [`GET /v1/users/{userId}/export`]: {
    operationId: "exportUser",
    tag: "Users",
    description: "One page of everything stored about the user: their own sessions (window, summary, archive, notes), then their facts. Follow `nextCursor` until it is null.",
  },
  [`GET /v1/users/{userId}/sessions`]: {
    operationId: "listUserSessions",
    tag: "Users",
    description: "The user's sessions, newest activity first, with created and last-activity times, message count and a short title; paged with `cursor` and `limit`.",
  },
  [`GET /v1/models`]: {
    operationId: "listModels",
    tag: "Chat",
    description: "The models of the OpenAI-compatible upstream (or the configured model), so OpenAI-compatible frontends can connect.",
  },
  [`GET /v1/traces/{traceId}`]: {
    operationId: "getTrace",
    tag: "Observability",
    description:
      "The trace of one context read, chat turn or proxied completion (its id came as `X-Memory-Trace-Id`): the recall query, every candidate with similarity, score and why it was kept or dropped, the tokens of each injected part against the budget, the round trips and their timings, degraded parts. Kept for `TRACE_TTL_SECONDS`; another tenant's id is a 404.",
  },
  [`GET ${S}/traces`]: { operationId: "listSessionTraces", tag: "Observability", description: "The session's latest trace ids with their kind and time, newest first." },
  [`GET /v1/stats`]: {
    operationId: "getStats",
    tag: "Observability",
    description:
      "The tenant's figures: active sessions, messages and tokens stored, average and p95 session length, facts per type, compressions and their average ratio, summarizer failures, recall hit rate, 429s, p50/p95 latency by route over recent requests, and `alerts` when the last hour's average session length jumps above the day's.",
  },
  [`GET /healthz`]: {
    operationId: "getHealth",
    tag: "Service",
    description: "Pings Redis and Vector in parallel: 200 when both answer, else 503 with the same report and Retry-After. Needs no API key.",
  },
  [`DELETE /v1/users/{userId}`]: {
    operationId: "eraseUser",
    tag: "Users",
    description:
      "Erases the user everywhere: sessions, archives, working memory, facts. Answers 202 while more is left: call again until 200. Every request of one erase carries the same `receiptId`; the last answers the receipt (counts of everything removed) and records it in the audit log. An erase is final.",
  },
  [`POST /v1/tokens`]: {
    operationId: "createToken",
    tag: "Access",
    description:
      "Mints a short-lived HS256 token (at most 24 h) for one user, and one session if `sessionId` is given, with scopes `read`, `write`, `chat`. A browser frontend sends it as `Authorization: Bearer <token>`; it reaches only its own user's (and session's) routes and never export, erase, tokens or audit. Needs a full tenant API key and `TOKEN_SECRET`.",
  },
  [`GET /v1/audit`]: {
    operationId: "listAudit",
    tag: "Access",
    description:
      "The tenant's audit log, oldest first: erases (with their receipts), exports, token mints, fact edits and deletes, settings changes, refusals and auth failures (throttled). Who (key id or token id and user), what, when (epoch ms), which ids; never contents. Page with `since` = the previous `nextSince`.",
  },
  [`POST /v1/users/{userId}/restore`]: {
    operationId: "restoreUserFacts",
    tag: "Users",
    description:
      "Restores the user's facts from the newest backup snapshot: facts missing now are written back with their ids, facts that exist are left as they are, so calling it again changes nothing. 404 without a snapshot, 409 for an erased user (never restored), 503 when backups are off.",
  },
};
