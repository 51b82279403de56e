/** @module CORS middleware for the configured origins, answering preflights before authentication. */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../context-types.ts";

/** Request headers a browser frontend sends. */
const ALLOW_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "X-Memory-Session", "X-Memory-User", "Mcp-Protocol-Version"];

/** Response headers a browser frontend may read. */
const EXPOSE_HEADERS = [
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Idempotent-Replayed",
  "X-Memory-Session",
  "X-Memory-Recalled",
  "X-Memory-Summary-Version",
  "X-Memory-Context-Tokens",
];

const built = new WeakMap<readonly string[], MiddlewareHandler<AppEnv>>();

/**
 * CORS for the origins in `CORS_ORIGINS`: preflights are answered here, before authentication
 * (a browser sends no credentials with them); without origins configured nothing is added.
 */
export function corsMiddleware(): MiddlewareHandler<AppEnv> {
  return async function corsForConfig(c, next) {
    const origins = c.get("runtime").config.corsOrigins;
    if (origins.length === 0) return next();
    let handler = built.get(origins);
    if (!handler) {
      handler = cors({
        origin: origins.includes("*") ? "*" : origins,
        allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
        allowHeaders: ALLOW_HEADERS,
        exposeHeaders: EXPOSE_HEADERS,
        maxAge: 600,
      });
      built.set(origins, handler);
    }
    return handler(c, next);
  };
}
