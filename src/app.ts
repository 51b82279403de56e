import { Hono } from "hono";
import type { AppEnv } from "./env.ts";
import { ApiError } from "./http/errors.ts";
import { bearerAuth } from "./http/middleware/auth.ts";
import { configMiddleware } from "./http/middleware/config.ts";
import { renderError } from "./http/on-error.ts";
import { healthRoutes } from "./http/routes/health.ts";

/** Builds the HTTP app: middleware and route modules, nothing else. */
export function buildApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(renderError);
  app.notFound(() => {
    throw new ApiError(404, "not_found", "no such route");
  });
  app.use("*", configMiddleware());
  app.route("/", healthRoutes());
  app.use("/v1/*", bearerAuth());
  return app;
}
