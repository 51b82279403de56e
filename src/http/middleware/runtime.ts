/** @module Middleware that builds the request's runtime, turning a configuration error into a 500 config_invalid. */
import type { MiddlewareHandler } from "hono";
import { ConfigError } from "../../worker/config/parse.ts";
import type { AppEnv, RuntimeFactory } from "../context-types.ts";
import { ApiError } from "../errors.ts";

/** Builds the request's runtime (configuration validated once per isolate). */
export function runtimeMiddleware(factory: RuntimeFactory): MiddlewareHandler<AppEnv> {
  return async function runtime(c, next) {
    try {
      c.set("runtime", factory(c.env, c.executionCtx, { requestId: c.get("requestId"), session: c.get("session") }));
    } catch (err) {
      if (err instanceof ConfigError) throw new ApiError(500, "config_invalid", err.message, { details: err.problems });
      throw err;
    }
    await next();
  };
}
