/** @module Upstash Redis REST handler: auth, routing of single, path, pipeline and multi-exec requests, encoding. */
import type { IncomingHttpHeaders } from "node:http";
import type { RestHandler, RestRequest, RestResponse } from "../listener.ts";
import type { RedisBackend } from "./backend.ts";
import { encodeEntries, encodeEntry } from "./encode.ts";
import { rejectReason } from "./policy.ts";
import { BackendUnavailableError, ReplyError, type Args, type Reply } from "./reply.ts";
import { commandBatch, pathCommand, RequestError, singleCommand } from "./request.ts";

export interface RedisHttpOptions {
  /** Token accepted as `Authorization: Bearer <token>` or `?_token=<token>`. */
  token: string;
  backend: RedisBackend;
}

const PATH_FORM_METHODS = new Set(["GET", "HEAD", "POST", "PUT"]);
const BODY_METHODS = new Set(["POST", "PUT"]);

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Builds the REST handler: auth, routing, encoding and status codes around a backend. */
export function createRedisHandler(options: RedisHttpOptions): RestHandler {
  const { token, backend } = options;
  // Read-your-writes clients only need a fresh value per response; a counter is enough.
  let syncCounter = 0;

  const respond = (status: number, body: string): RestResponse => ({
    status,
    headers: { "content-type": "application/json", "upstash-sync-token": String(++syncCounter) },
    body,
  });
  const fail = (status: number, message: string): RestResponse => respond(status, JSON.stringify({ error: message }));

  const authorized = (req: RestRequest): boolean => {
    const auth = header(req.headers, "authorization");
    if (auth !== undefined && auth === `Bearer ${token}`) return true;
    return req.query.get("_token") === token;
  };

  const single = async (args: Args, base64: boolean): Promise<RestResponse> => {
    const rejected = rejectReason(args);
    if (rejected !== undefined) return fail(400, rejected);
    const reply = await backend.exec(args);
    return respond(reply instanceof ReplyError ? 400 : 200, encodeEntry(reply, base64));
  };

  const pipeline = async (commands: Args[], base64: boolean): Promise<RestResponse> => {
    // Rejected commands become per-item errors; the others still run, in order.
    const replies: Reply[] = commands.map((args) => {
      const rejected = rejectReason(args);
      return rejected === undefined ? null : new ReplyError(rejected);
    });
    const runnable = commands.filter((_, i) => replies[i] === null);
    const results = runnable.length > 0 ? await backend.pipeline(runnable) : [];
    let next = 0;
    const merged = replies.map((reply) => (reply === null ? (results[next++] ?? null) : reply));
    return respond(200, encodeEntries(merged, base64));
  };

  const multiExec = async (commands: Args[], base64: boolean): Promise<RestResponse> => {
    for (const args of commands) {
      const rejected = rejectReason(args);
      if (rejected !== undefined) return fail(400, `EXECABORT Transaction discarded: ${rejected}`);
    }
    const result = await backend.execMulti(commands);
    if (result instanceof ReplyError) return fail(400, result.message);
    return respond(200, encodeEntries(result, base64));
  };

  return async (req) => {
    if (!authorized(req)) return fail(401, "WRONGPASS invalid or missing auth token");
    const base64 = header(req.headers, "upstash-encoding")?.toLowerCase() === "base64";
    const path = req.path.length > 1 && req.path.endsWith("/") ? req.path.slice(0, -1) : req.path;
    try {
      if (path === "/pipeline" || path === "/multi-exec") {
        if (!BODY_METHODS.has(req.method)) return fail(405, `ERR method ${req.method} not allowed on ${path}`);
        const commands = commandBatch(req.body);
        return path === "/pipeline" ? await pipeline(commands, base64) : await multiExec(commands, base64);
      }
      if (!PATH_FORM_METHODS.has(req.method)) return fail(405, `ERR method ${req.method} not allowed`);
      if (path === "/" && BODY_METHODS.has(req.method)) return await single(singleCommand(req.body), base64);
      return await single(pathCommand(path, req.query, req.method, req.body), base64);
    } catch (err) {
      if (err instanceof RequestError) return fail(err.status, err.message);
      if (err instanceof BackendUnavailableError) return fail(503, err.message);
      return fail(500, `ERR internal error: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}
