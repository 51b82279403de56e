import { Hono } from "hono";
import type { AppEnv } from "../env.ts";

/** `GET /healthz`: checks Redis and Vector in parallel through the official clients. */
export function healthRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/healthz", async (c) => {
    const health = await c.get("runtime").health();
    return c.json(health, health.ok ? 200 : 503, health.ok ? {} : { "retry-after": "5" });
  });
  return app;
}
