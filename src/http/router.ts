import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./env.ts";
import { ApiError } from "./errors.ts";

/**
 * A route group whose zod schemas validate input and also describe it in `/openapi.json`. Invalid
 * input becomes one 400 with every issue listed.
 */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const issues = result.error.issues.map((issue) => ({
          path: issue.path.map(String).join("."),
          message: issue.message,
        }));
        throw new ApiError(400, "validation_failed", `invalid ${result.target}: ${issues[0]?.path || "(root)"} ${issues[0]?.message ?? ""}`.trim(), {
          details: issues,
        });
      }
    },
  });
}
