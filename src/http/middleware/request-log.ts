/** @module Outermost middleware: assigns the request id, logs one line per request and hands off its trace and metrics. */
import type { MiddlewareHandler } from "hono";
import type { MemoryLogger } from "../../memory/ports/index.ts";
import type { AppEnv } from "../context-types.ts";

/** A client's request id is kept when it is short and plain (it ends up in logs and headers). */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * Gives every request an id (`X-Request-Id`, the client's when sane), then logs its one line
 * (route, status, duration, tenant, session; never contents) and hands its trace and metrics to
 * the background once the response is ready. Outermost, so a 401 or a 500 is logged too; through
 * `fallback` when the runtime (and its logger) could not be built.
 */
export function requestLog(fallback?: MemoryLogger): MiddlewareHandler<AppEnv> {
  return async function logRequest(c, next) {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    const started = Date.now();
    await next();
    c.res.headers.set("x-request-id", requestId);
    const runtime = c.var.runtime;
    if (!runtime) {
      // The runtime could not be built (bad configuration): still one line for the request.
      fallback?.info("request", {
        requestId,
        method: c.req.method,
        route: c.req.routePath,
        status: c.res.status,
        durationMs: Date.now() - started,
      });
      return;
    }
    const observe = runtime.observe;
    const traceId = observe.trace.traceId;
    if (traceId) c.res.headers.set("x-memory-trace-id", traceId);
    observe.finish({ route: c.req.routePath, method: c.req.method, status: c.res.status, durationMs: Date.now() - started });
  };
}
