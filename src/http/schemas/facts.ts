/** @module Zod input schemas of the fact routes: fact types, createdAt and time queries, and metadata.<key> query filters. */
import { z } from "@hono/zod-openapi";
import { MAX_METADATA_FILTER_VALUE, MAX_METADATA_FILTERS, METADATA_FILTER_KEY, factTextProblem } from "../../memory/facts/index.ts";
import { FACT_TYPES, type FactType } from "../../memory/model.ts";

export const FactTypeSchema = z.enum(FACT_TYPES as unknown as [FactType, ...FactType[]]);

/** Longest fact text, in characters. */
export const MAX_FACT_CHARS = 4000;

/**
 * A fact's text on every route that writes one: trimmed, 1-4000 characters, and none of the
 * characters the fact text rule refuses (NUL, lone surrogates, bidi controls; see `factTextProblem`).
 */
export const FactTextSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_FACT_CHARS)
  .superRefine((text, ctx) => {
    const problem = factTextProblem(text);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({
    description:
      "1-4000 characters after trimming; no NUL, lone surrogates or bidirectional controls (U+202A-U+202E, U+2066-U+2069): such a text is refused (400), never stripped",
  });

/** `types=fact,preference` in a query string; only known types, so nothing else reaches a filter. */
export const FactTypeList = z
  .string()
  .max(200)
  .transform((raw) =>
    raw
      .split(",")
      .map((t) => t.trim())
      .filter((t) => t !== ""),
  )
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
  .openapi({
    description: "When the fact was originally stated: epoch ms or ISO 8601 (not in the future). Default: now.",
    example: 1735689600000,
  });

/**
 * A time in a query string: epoch ms or an ISO 8601 date-time with offset. Becomes epoch ms.
 */
export const QueryTime = z
  .string()
  .max(40)
  .transform((raw, ctx) => {
    const ms = /^\d{1,16}$/.test(raw)
      ? Number(raw)
      : /^\d{4}-\d\d-\d\dT/.test(raw) && z.iso.datetime({ offset: true }).safeParse(raw).success
        ? Date.parse(raw)
        : Number.NaN;
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > 8.64e15) {
      ctx.addIssue({ code: "custom", message: "must be epoch ms or an ISO 8601 date-time with offset" });
      return z.NEVER;
    }
    return ms;
  });

/**
 * Why `key` cannot name a metadata filter, or null: a plain identifier only (so no `__proto__`,
 * no dot, nothing a filter string could read as syntax), and not a member of every object
 * (`constructor`, `toString`): stored metadata never holds those (a body with one is not a plain
 * object), and JSON parsers treat them apart. The one rule of the REST query and the MCP tools.
 */
export function metadataFilterKeyProblem(key: string): string | null {
  if (!METADATA_FILTER_KEY.test(key)) return "names an invalid metadata key (1-64 of A-Z a-z 0-9 _, starting with a letter)";
  if (key in Object.prototype) return "names a reserved metadata key (a built-in object member such as constructor or toString)";
  return null;
}

/** Why `value` cannot be compared in a metadata filter, or null (the same rule on both APIs). */
export function metadataFilterValueProblem(value: string): string | null {
  if (value.length > MAX_METADATA_FILTER_VALUE) return `must be at most ${MAX_METADATA_FILTER_VALUE} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value) || (value.includes("'") && value.includes('"')))
    return "must not hold a backslash, a control character, or both quote characters";
  return null;
}

/** The prefix of a metadata equality in a query string: `metadata.topic=family`. */
export const METADATA_PARAM_PREFIX = "metadata.";

/**
 * Checks the extra parameters of a query that takes metadata equalities: only
 * `metadata.<key>=<value>` with a plain key, a bounded value and at most
 * {@link MAX_METADATA_FILTERS} of them; anything else is an unknown parameter. A raw filter
 * string (`filter=`) is refused with what to use instead.
 */
export function checkMetadataParams(known: readonly string[]) {
  return (query: Record<string, unknown>, ctx: z.core.$RefinementCtx): void => {
    const extra = Object.keys(query).filter((k) => !known.includes(k));
    let count = 0;
    for (const name of extra) {
      const value = query[name];
      if (name === "filter") {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: "is not accepted: filter with type, agentId, createdAfter, createdBefore and metadata.<key>=<value>",
        });
        continue;
      }
      if (!name.startsWith(METADATA_PARAM_PREFIX)) {
        ctx.addIssue({ code: "custom", path: [name], message: "is not a known parameter" });
        continue;
      }
      const key = name.slice(METADATA_PARAM_PREFIX.length);
      const keyProblem = metadataFilterKeyProblem(key);
      if (keyProblem) {
        ctx.addIssue({ code: "custom", path: [name], message: keyProblem });
        continue;
      }
      count += 1;
      const valueProblem = typeof value === "string" ? metadataFilterValueProblem(value) : "must be given once";
      if (valueProblem) ctx.addIssue({ code: "custom", path: [name], message: valueProblem });
    }
    if (count > MAX_METADATA_FILTERS)
      ctx.addIssue({ code: "custom", path: [], message: `at most ${MAX_METADATA_FILTERS} metadata.<key> parameters` });
  };
}

/** The metadata equalities of a checked query (see {@link checkMetadataParams}); undefined when none. */
export function metadataParams(query: Record<string, unknown>): Record<string, string> | undefined {
  const entries = Object.entries(query).flatMap(([name, value]) =>
    name.startsWith(METADATA_PARAM_PREFIX) && typeof value === "string" ? [[name.slice(METADATA_PARAM_PREFIX.length), value] as const] : [],
  );
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
