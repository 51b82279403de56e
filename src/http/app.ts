import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv, RuntimeFactory } from "./env.ts";
import { ApiError } from "./errors.ts";
import { bearerAuth } from "./middleware/auth.ts";
import { configuredBodyLimit } from "./middleware/body-limit.ts";
import { runtimeMiddleware } from "./middleware/runtime.ts";
import { renderError } from "./on-error.ts";
import { chatRoutes } from "./routes/chat.ts";
import { completionRoutes } from "./routes/completions.ts";
import { mountDocs } from "./routes/docs.ts";
import { factRoutes } from "./routes/facts.ts";
import { healthRoutes } from "./routes/health.ts";
import { messageRoutes } from "./routes/messages.ts";
import { sessionRoutes } from "./routes/sessions.ts";
import { userRoutes } from "./routes/users.ts";
import { workingMemoryRoutes } from "./routes/working.ts";

/** Builds the HTTP app: middleware and route modules over the runtime `factory` builds per request. */
export function buildApp(factory: RuntimeFactory): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  app.onError(renderError);
  app.notFound(() => {
    throw new ApiError(404, "not_found", "no such route");
  });
  app.use("*", runtimeMiddleware(factory));
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
