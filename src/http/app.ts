/** @module Builds the Hono HTTP app: middleware order, every route module, and the 404/405 answers. */
import { OpenAPIHono } from "@hono/zod-openapi";
import { TrieRouter } from "hono/router/trie-router";
import type { MemoryLogger } from "../memory/ports/index.ts";
import type { AppEnv, RuntimeFactory } from "./context-types.ts";
import { ApiError } from "./errors.ts";
import { accessGuard } from "./middleware/access.ts";
import { bearerAuth } from "./middleware/auth.ts";
import { mcpAccessGuard } from "./middleware/mcp-access.ts";
import { configuredBodyLimit } from "./middleware/body-limit.ts";
import { requestLog } from "./middleware/request-log.ts";
import { routeMatch } from "./middleware/route-match.ts";
import { corsMiddleware } from "./middleware/cors.ts";
import { rateLimit } from "./middleware/rate-limit.ts";
import { runtimeMiddleware } from "./middleware/runtime.ts";
import { renderError } from "./on-error.ts";
import { auditRoutes } from "./routes/audit.ts";
import { chatRoutes } from "./routes/chat.ts";
import { completionRoutes } from "./routes/completions.ts";
import { mountDocs } from "./routes/docs.ts";
import { factRoutes } from "./routes/facts.ts";
import { healthRoutes } from "./routes/health.ts";
import { mcpRoutes } from "./routes/mcp.ts";
import { messageRoutes } from "./routes/messages.ts";
import { modelRoutes } from "./routes/models.ts";
import { traceAndStatsRoutes } from "./routes/traces-stats.ts";
import { sessionRoutes } from "./routes/sessions.ts";
import { tokenRoutes } from "./routes/tokens.ts";
import { userSessionRoutes } from "./routes/user-sessions.ts";
import { userRoutes } from "./routes/users.ts";
import { workingMemoryRoutes } from "./routes/working.ts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * Builds the HTTP app: middleware and route modules over the runtime `factory` builds per request.
 * A request logs through its runtime's logger; `logger` takes the lines of a request whose runtime
 * could not be built (a configuration error). Tools that only read the routes leave it out.
 */
export function buildApp(factory: RuntimeFactory, logger?: MemoryLogger): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  app.onError((err, c) => renderError(err, c, logger));
  app.use("*", requestLog(logger), routeMatch(), runtimeMiddleware(factory), corsMiddleware());
  app.route("/", healthRoutes());
  mountDocs(app);
  // Who is calling, then may they (the domain's access rules), then how often.
  app.use("/v1/*", bearerAuth(), configuredBodyLimit(), accessGuard(), rateLimit());
  // The MCP server: the same credentials and rules, checked per tool call (see mcpAccessGuard).
  app.use("/mcp", bearerAuth(), configuredBodyLimit(), mcpAccessGuard(), rateLimit());
  app.route("/", mcpRoutes());
  app.route("/", messageRoutes());
  app.route("/", sessionRoutes());
  app.route("/", workingMemoryRoutes());
  app.route("/", factRoutes());
  app.route("/", userRoutes());
  app.route("/", userSessionRoutes());
  app.route("/", chatRoutes());
  app.route("/", completionRoutes());
  app.route("/", modelRoutes());
  app.route("/", traceAndStatsRoutes());
  app.route("/", tokenRoutes());
  app.route("/", auditRoutes());
  const allowed = allowedMethods(app);
  app.notFound((c) => {
    const methods = allowed(c.req.path);
    if (methods.length > 0) {
      const allow = methods.join(", ");
      throw new ApiError(405, "method_not_allowed", `${c.req.method} is not allowed here; use ${allow}`, { headers: { allow } });
    }
    throw new ApiError(404, "not_found", "no such route");
  });
  return app;
}

/** The methods the app's routes answer on a path (a known path asked with another method gets 405). */
function allowedMethods(app: OpenAPIHono<AppEnv>): (path: string) => string[] {
  const router = new TrieRouter<string>();
  for (const route of app.routes) if (route.method !== "ALL") router.add(route.method, route.path, route.method);
  return (path) => METHODS.filter((method) => (router.match(method, path)[0]?.length ?? 0) > 0);
}
