import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./env.ts";
import { ApiError } from "./http/errors.ts";
import { bearerAuth } from "./http/middleware/auth.ts";
import { configuredBodyLimit } from "./http/middleware/body-limit.ts";
import { configMiddleware } from "./http/middleware/config.ts";
import { renderError } from "./http/on-error.ts";
import { mountDocs } from "./http/routes/docs.ts";
import { chatRoutes } from "./http/routes/chat.ts";
import { completionRoutes } from "./http/routes/completions.ts";
import { factRoutes } from "./http/routes/facts.ts";
import { healthRoutes } from "./http/routes/health.ts";
import { messageRoutes } from "./http/routes/messages.ts";
import { sessionRoutes } from "./http/routes/sessions.ts";
import { userRoutes } from "./http/routes/users.ts";
import { workingMemoryRoutes } from "./http/routes/working.ts";

/** Builds the HTTP app: middleware and route modules, nothing else. */
export function buildApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  app.onError(renderError);
  app.notFound(() => {
    throw new ApiError(404, "not_found", "no such route");
  });
  app.use("*", configMiddleware());
  app.route("/", healthRoutes());
  mountDocs(app);
  app.use("/v1/*", bearerAuth(), configuredBodyLimit());
  app.route("/", messageRoutes());
  app.route("/", sessionRoutes());
  app.route("/", workingMemoryRoutes());
  app.route("/", factRoutes());
  app.route("/", userRoutes());
  app.route("/", chatRoutes());
  app.route("/", completionRoutes());
  return app;
}
