import { Hono } from "hono";
import type { AppEnv } from "../../env.ts";

type Status = "ok" | "down" | "not_configured";

async function probe(check: (() => Promise<unknown>) | null): Promise<{ status: Status; error?: string }> {
  if (!check) return { status: "not_configured" };
  try {
    await check();
    return { status: "ok" };
  } catch (err) {
    return { status: "down", error: err instanceof Error ? err.message.slice(0, 200) : "unknown error" };
  }
}

/** `GET /healthz`: checks Redis and Vector in parallel through the official clients. */
export function healthRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/healthz", async (c) => {
    const { redis, vector } = c.get("deps").clients;
    const [r, v] = await Promise.all([
      probe(redis ? () => redis.ping() : null),
      probe(vector ? () => vector.info() : null),
    ]);
    const ok = r.status === "ok" && v.status === "ok";
    const errors = { ...(r.error ? { redis: r.error } : {}), ...(v.error ? { vector: v.error } : {}) };
    return c.json(
      {
        ok,
        redis: r.status,
        vector: v.status,
        llm: c.get("config").llm ? "configured" : "not_configured",
        ...(Object.keys(errors).length > 0 ? { errors } : {}),
      },
      ok ? 200 : 503,
      ok ? {} : { "retry-after": "5" },
    );
  });
  return app;
}
