/** @module The API reference's tags and the shape of each operation's doc (operationId, tag, description). */
/**
 * The tags of the API reference and the shape of what it says about every operation: its
 * `operationId` (the typed client's name for it), its tag and a description. Each route states its
 * own beside its schemas (`doc` of `defineRoute`); `test/unit/http/openapi/document.test.ts` fails on any
 * operation that ends up without all three.
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
