/** @module The zod schema and examples of the GET /healthz answer: the state of Redis, Vector, the LLM and backups. */
import { z } from "@hono/zod-openapi";

/** What `GET /healthz` answers, 200 when both stores answer, else 503 with the same report. */

const Upstream = z.enum(["ok", "down", "not_configured", "misconfigured"]).openapi({
  description: "`misconfigured`: the Vector index answers but does not fit the configuration (`errors.vector` names the variable to set)",
});

export const HealthSchema = z
  .object({
    ok: z.boolean().openapi({ description: "Redis answers and Vector answers and fits the configuration (or is not configured)" }),
    redis: Upstream,
    vector: Upstream,
    llm: z.enum(["configured", "not_configured"]),
    backups: z.enum(["configured", "off"]).openapi({ description: "`off` without a `BACKUPS` R2 bucket binding" }),
    errors: z
      .object({ redis: z.string().optional(), vector: z.string().optional() })
      .optional()
      .openapi({ description: "Why an upstream is down" }),
  })
  .openapi("Health");

/** The health report, as the composition root's probe produces it. */
export type Health = z.infer<typeof HealthSchema>;

export const HEALTH_EXAMPLES = {
  ok: { ok: true, redis: "ok" as const, vector: "ok" as const, llm: "configured" as const, backups: "configured" as const },
  down: {
    ok: false,
    redis: "down" as const,
    vector: "ok" as const,
    llm: "configured" as const,
    backups: "off" as const,
    errors: { redis: "redis did not answer within 5000 ms" },
  },
};
