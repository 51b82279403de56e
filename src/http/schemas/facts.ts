import { z } from "@hono/zod-openapi";
import { FACT_TYPES, type FactType } from "../../memory/types.ts";

export const FactTypeSchema = z.enum(FACT_TYPES as unknown as [FactType, ...FactType[]]);

/** `types=fact,preference` in a query string; only known types, so nothing else reaches a filter. */
export const FactTypeList = z
  .string()
  .max(200)
  .transform((raw) => raw.split(",").map((t) => t.trim()).filter((t) => t !== ""))
  .pipe(z.array(FactTypeSchema).min(1).max(FACT_TYPES.length));
