/** @module Upstash Vector REST handler: bearer-token check, routing to the endpoints, result and error envelopes. */
import type { RestHandler, RestRequest, RestResponse } from "../listener.ts";
import type { VectorContext } from "./context.ts";
import { badRequest, VectorApiError } from "./errors.ts";
import { deleteNamespace, info, listNamespaces } from "./ops-admin.ts";
import { fetchRecords, range } from "./ops-read.ts";
import { remove, reset } from "./ops-delete.ts";
import { update } from "./ops-update.ts";
import { upsert, upsertData } from "./ops-upsert.ts";
import { query } from "./query.ts";
import type { ResumableQueries } from "./resumable.ts";

interface Call {
  ctx: VectorContext;
  namespace: string;
  req: RestRequest;
  /** The parsed JSON body (400 when it is missing or malformed). */
  body(): unknown;
}

type Route = (call: Call) => unknown; // a value, or a promise of one (the routes that embed text)

const routes = (resumable: ResumableQueries): Record<string, Route> => ({
  upsert: (c) => upsert(c.ctx, c.namespace, c.body()),
  "upsert-data": (c) => upsertData(c.ctx, c.namespace, c.body()),
  update: (c) => update(c.ctx, c.namespace, c.body()),
  query: (c) => query(c.ctx, c.namespace, c.body(), "vector"),
  "query-data": (c) => query(c.ctx, c.namespace, c.body(), "data"),
  fetch: (c) => fetchRecords(c.ctx, c.namespace, c.body()),
  delete: (c) => remove(c.ctx, c.namespace, c.body()),
  range: (c) => range(c.ctx, c.namespace, c.body()),
  // The client sends `[]` to the next four; the Python SDK sends nothing. The body is ignored.
  reset: (c) => reset(c.ctx, c.namespace, c.req.query.has("all")),
  info: (c) => info(c.ctx),
  "list-namespaces": (c) => listNamespaces(c.ctx),
  "delete-namespace": (c) => deleteNamespace(c.ctx, c.namespace),
  "resumable-query": (c) => resumable.start(c.ctx, c.namespace, c.body(), "vector"),
  "resumable-query-data": (c) => resumable.start(c.ctx, c.namespace, c.body(), "data"),
  "resumable-query-next": (c) => resumable.next(c.ctx, c.body()),
  "resumable-query-end": (c) => resumable.end(c.body()),
});

const reply = (status: number, value: unknown): RestResponse => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
});

const failure = (status: number, message: string): RestResponse => reply(status, { error: message, status });

/** Splits `/upsert/ns` into endpoint and namespace. The client appends the namespace unencoded. */
function splitPath(path: string): { endpoint: string; namespace: string } {
  const trimmed = path.replace(/^\/+/, "");
  const slash = trimmed.indexOf("/");
  if (slash < 0) return { endpoint: trimmed, namespace: "" };
  const raw = trimmed.slice(slash + 1);
  let namespace = raw;
  try {
    namespace = decodeURIComponent(raw); // fetch percent-encodes e.g. spaces; undo that
  } catch {
    // not valid percent-encoding: keep the raw text as the name
  }
  return { endpoint: trimmed.slice(0, slash), namespace };
}

function parseBody(req: RestRequest): unknown {
  const text = req.body.toString("utf8");
  if (text.trim() === "") throw badRequest("Invalid request body: a JSON body is required");
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw badRequest(`Invalid request body: malformed JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * The Vector REST handler: bearer-token check, routing (every method is accepted; the client
 * always POSTs), and the `{"result": …}` / `{"error": …, "status": N}` envelopes.
 */
export function createHttpHandler(ctx: VectorContext, token: string, resumable: ResumableQueries): RestHandler {
  const table = routes(resumable);
  return async (req) => {
    const auth = req.headers.authorization ?? "";
    // The auth scheme is case-insensitive (RFC 7235); the token must match exactly.
    if (auth.slice(0, 7).toLowerCase() !== "bearer " || auth.slice(7) !== token) {
      return failure(401, "Unauthorized: Invalid auth token");
    }
    const { endpoint, namespace } = splitPath(req.path);
    const route = Object.hasOwn(table, endpoint) ? table[endpoint] : undefined;
    if (!route) return failure(404, `Not Found: no endpoint ${req.path}`);
    let parsed: { value: unknown } | undefined;
    const call: Call = {
      ctx,
      namespace,
      req,
      body: () => (parsed ??= { value: parseBody(req) }).value,
    };
    try {
      return reply(200, { result: await route(call) });
    } catch (err) {
      if (err instanceof VectorApiError) return failure(err.status, err.message);
      return failure(500, `Internal error: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}
