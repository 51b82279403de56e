import type { OperationClass } from "../memory/access.ts";

const S = "/v1/sessions/{sessionId}";
const F = "/v1/users/{userId}/facts";

const sessionRead: OperationClass = { need: "read", target: "session" };
const sessionWrite: OperationClass = { need: "write", target: "session" };
const userRead: OperationClass = { need: "read", target: "user" };
const userWrite: OperationClass = { need: "write", target: "user" };
const chat: OperationClass = { need: "chat", target: "session" };

/**
 * What every `/v1` route needs, keyed like `OPERATION_DOCS` ("METHOD path"). A route missing here
 * is closed to tokens and to read keys' writes (see `decideAccess`); a test fails on a documented
 * route without a row, so a new route is classified on purpose.
 */
export const ROUTE_ACCESS: Readonly<Record<string, OperationClass>> = {
  [`POST ${S}/messages`]: sessionWrite,
  [`GET ${S}/context`]: sessionRead,
  [`GET ${S}`]: sessionRead,
  [`PUT ${S}`]: sessionWrite,
  [`DELETE ${S}`]: sessionWrite,
  [`POST ${S}/compress`]: sessionWrite,
  [`GET ${S}/history`]: sessionRead,
  [`GET ${S}/notes`]: sessionRead,
  [`DELETE ${S}/notes`]: sessionWrite,
  [`PUT ${S}/notes/{key}`]: sessionWrite,
  [`GET ${S}/notes/{key}`]: sessionRead,
  [`DELETE ${S}/notes/{key}`]: sessionWrite,
  [`POST ${S}/scratchpad`]: sessionWrite,
  [`GET ${S}/scratchpad`]: sessionRead,
  [`DELETE ${S}/scratchpad`]: sessionWrite,
  [`POST ${S}/chat`]: chat,
  // The session comes from X-Memory-Session: a token must send it (the `user` field cannot name one).
  [`POST /v1/chat/completions`]: chat,
  [`GET /v1/models`]: { need: "chat", target: "none" },
  [`POST ${F}`]: userWrite,
  [`POST ${F}/import`]: userWrite,
  [`GET ${F}`]: userRead,
  [`GET ${F}/{factId}`]: userRead,
  [`PATCH ${F}/{factId}`]: userWrite,
  [`DELETE ${F}/{factId}`]: userWrite,
  [`GET /v1/users/{userId}/sessions`]: userRead,
  // Tenant keys only: a token never exports or erases anyone, not even its own user.
  [`GET /v1/users/{userId}/export`]: { need: "tenant", write: false },
  [`DELETE /v1/users/{userId}`]: { need: "tenant", write: true },
  [`POST /v1/users/{userId}/restore`]: { need: "tenant", write: true },
  // A read key cannot mint: a token with `write` would be more than the key may do.
  [`POST /v1/tokens`]: { need: "tenant", write: true },
  // Contents-free, so dashboard (read) keys may read it; tokens may not.
  [`GET /v1/audit`]: { need: "tenant", write: false },
  // Traces hold query and fact texts of any user; stats span the tenant: tenant keys (read keys too).
  [`GET /v1/traces/{traceId}`]: { need: "tenant", write: false },
  [`GET ${S}/traces`]: { need: "tenant", write: false },
  [`GET /v1/stats`]: { need: "tenant", write: false },
};

/**
 * What each tool of the MCP server at `/mcp` needs, checked like a route's row: `recall` reads
 * the user's facts like `GET .../facts`, `remember` and `forget` write them, `get_context` reads a
 * session. A tool missing here is closed to tokens and to read keys (see `decideAccess`).
 */
export const MCP_TOOL_ACCESS: Readonly<Record<string, OperationClass>> = {
  remember: userWrite,
  recall: userRead,
  forget: userWrite,
  list_memories: userRead,
  get_context: sessionRead,
};
