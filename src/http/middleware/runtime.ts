/** @module Middleware that builds the request's runtime; a configuration error propagates to the error handler (500 config_invalid). */
import type { MiddlewareHandler } from "hono";
import type { AppEnv, RuntimeFactory } from "../context-types.ts";

/** Builds the request's runtime (configuration validated once per isolate). */
export function runtimeMiddleware(factory: RuntimeFactory): MiddlewareHandler<AppEnv> {
  return async function runtime(c, next) {
    c.set("runtime", factory(c.env, c.executionCtx, { requestId: c.get("requestId"), session: c.get("session") }));
    await next();
  };
}
