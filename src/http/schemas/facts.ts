import { z } from "@hono/zod-openapi";
import { FACT_TYPES, type FactType } from "../../memory/types.ts";

export const FactTypeSchema = z.enum(FACT_TYPES as unknown as [FactType, ...FactType[]]);

/** `types=fact,preference` in a query string; only known types, so nothing else reaches a filter. */
export const FactTypeList = z
  .string()
  .max(200)
  .transform((raw) => raw.split(",").map((t) => t.trim()).filter((t) => t !== ""))
  .pipe(z.array(FactTypeSchema).min(1).max(FACT_TYPES.length));

/** Tolerated clock skew between a client and the Worker before a `createdAt` counts as future. */
const CLOCK_SKEW_MS = 60_000;

/**
 * When a fact was originally stated: epoch ms or an ISO 8601 date-time with offset; not in the
 * future. Becomes epoch ms.
 */
export const CreatedAtSchema = z
  .union([z.number().int().min(0).max(8.64e15), z.iso.datetime({ offset: true })])
  .transform((v, ctx) => {
    const ms = typeof v === "number" ? v : Date.parse(v);
    if (!Number.isFinite(ms)) ctx.addIssue({ code: "custom", message: "is not a valid date" });
    else if (ms > Date.now() + CLOCK_SKEW_MS) ctx.addIssue({ code: "custom", message: "must not be in the future" });
    return ms;
  })
  .openapi({ description: "When the fact was originally stated: epoch ms or ISO 8601 (not in the future). Default: now.", example: 1735689600000 });
