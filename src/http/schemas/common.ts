import { z } from "@hono/zod-openapi";
import { ID_PATTERN, ID_RULE } from "../../memory/ids.ts";

/** Any identifier that becomes part of a key, a namespace or a filter. */
export const IdSchema = z.string().regex(ID_PATTERN, `must be ${ID_RULE}`);

/** `Idempotency-Key`: any printable ASCII up to 256 characters; it is hashed before it is stored. */
export const IdempotencyKeySchema = z
  .string()
  .max(256)
  .regex(/^[\x21-\x7e][\x20-\x7e]*$/, "must be 1-256 printable ASCII characters")
  .openapi({ description: "A retry with the same key answers with the recorded reply and never calls the LLM again" });

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "validation_failed" }),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .openapi("Error");

export const SessionParams = z.object({
  sessionId: IdSchema.openapi({ param: { name: "sessionId", in: "path" }, example: "demo" }),
});

export const UserParams = z.object({
  userId: IdSchema.openapi({ param: { name: "userId", in: "path" }, example: "xiaoming" }),
});

/** Query-string booleans: only `true`/`false`/`1`/`0`, so a typo is an error instead of false. */
export const QueryBool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** Query-string integers within bounds. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const errorResponses = {
  400: { description: "Invalid input", content: { "application/json": { schema: ErrorSchema } } },
  401: { description: "Missing or invalid API key or token", content: { "application/json": { schema: ErrorSchema } } },
  403: { description: "The key's role or the token's user, session or scopes do not allow this", content: { "application/json": { schema: ErrorSchema } } },
  404: { description: "No such resource", content: { "application/json": { schema: ErrorSchema } } },
  409: { description: "Conflicts with what is stored", content: { "application/json": { schema: ErrorSchema } } },
  429: { description: "Over RATE_LIMIT; retry after Retry-After (RateLimit-* headers say more)", content: { "application/json": { schema: ErrorSchema } } },
  503: { description: "An upstream is unavailable; retry after Retry-After", content: { "application/json": { schema: ErrorSchema } } },
} as const;

/** A JSON response entry of a route's `responses`. */
export const jsonResponse = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });

/** Responses whose shape is documented by example rather than schema. */
export const AnyObject = z.object({}).passthrough();

/** Every `/v1` route takes `Authorization: Bearer <key or token>`. */
export const security = [{ bearer: [] }];
