/** @module Middleware that rejects request bodies over the configured size with 413 before parsing. */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../context-types.ts";
import { ApiError } from "../errors.ts";

/** Rejects bodies over the configured limit with 413 before anything parses them. */
export function configuredBodyLimit(): MiddlewareHandler<AppEnv> {
  return async function limitBody(c, next) {
    const maxSize = c.get("runtime").config.limits.maxBodyBytes;
    return bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError(413, "payload_too_large", `request body exceeds ${maxSize} bytes`);
      },
    })(c, next);
  };
}
