import type { MiddlewareHandler } from "hono";
import { ConfigError, loadConfig } from "../../config.ts";
import { createDeps } from "../../deps.ts";
import type { AppEnv } from "../../env.ts";
import { ApiError } from "../errors.ts";

/** Validates the bindings (once per isolate) and builds the request's dependencies. */
export function configMiddleware(): MiddlewareHandler<AppEnv> {
  return async function config(c, next) {
    let parsed;
    try {
      parsed = loadConfig(c.env);
    } catch (err) {
      if (err instanceof ConfigError) {
        throw new ApiError(500, "config_invalid", err.message, { details: err.problems });
      }
      throw err;
    }
    c.set("config", parsed);
    c.set("deps", createDeps(parsed, c.executionCtx));
    await next();
  };
}
