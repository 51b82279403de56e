/** @module Zod building blocks every route shares: ids, path params, query coercions, the error body and error responses. */
import { z } from "@hono/zod-openapi";
import { ID_PATTERN, ID_RULE } from "../../memory/ids.ts";

/** Any identifier that becomes part of a key, a namespace or a filter. */
export const IdSchema = z.string().regex(ID_PATTERN, `must be ${ID_RULE}`);

/** `Idempotency-Key`, up to 256 printable ASCII characters; it is hashed before it is stored. */
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
  // Not the README tour's "demo" (another user's session there: trying it here would be a 409).
  sessionId: IdSchema.openapi({ param: { name: "sessionId", in: "path" }, example: "reference-demo" }),
});

export const UserParams = z.object({
  userId: IdSchema.openapi({ param: { name: "userId", in: "path" }, example: "xiaoming" }),
});

/** Query-string booleans: only `true`/`false`/`1`/`0`, so a typo is an error instead of false. */
export const QueryBool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/**
 * Query-string integers within bounds. Every way to miss (not a number, a fraction, out of range)
 * answers the whole rule, "must be an integer from 1 to 1000", so one error tells the fix.
 */
export const queryInt = (min: number, max: number) => {
  const rule = `must be an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^-?\d+$/, rule)
    .transform(Number)
    .pipe(z.number().int(rule).min(min, rule).max(max, rule));
};

const errorResponse = (description: string, example: { code: string; message: string }) => ({
  description,
  content: { "application/json": { schema: ErrorSchema, example: { error: example } } },
});

/**
 * Every error status the API answers with, one shared `Error` body each; a route lists the ones it
 * can return with `errors(400, 401, ...)`. 405 is not listed per operation: it is the answer to a
 * method a path does not declare (with `Allow`), see the document's description.
 */
export const ERROR_RESPONSES = {
  400: errorResponse("Invalid input: nothing was stored", {
    code: "validation_failed",
    message: "invalid body: messages must have at least 1 item",
  }),
  401: errorResponse("Missing or invalid API key or token", {
    code: "unauthorized",
    message: "a valid API key or token is required: Authorization: Bearer <key>",
  }),
  403: errorResponse("The key's role or the token's user, session or scopes do not allow this", {
    code: "forbidden",
    message: "a read key cannot write",
  }),
  404: errorResponse("No such resource", { code: "not_found", message: "no fact f_0123456789abcdef" }),
  409: errorResponse("Conflicts with what is stored", { code: "conflict", message: "session belongs to a different user" }),
  413: errorResponse("The body or one of its messages is too large", {
    code: "payload_too_large",
    message: "request body exceeds 1048576 bytes",
  }),
  415: errorResponse("The body is not JSON", {
    code: "unsupported_media_type",
    message: "send the body as JSON (content-type: application/json)",
  }),
  429: errorResponse("Over RATE_LIMIT; retry after Retry-After (RateLimit-* headers say more)", {
    code: "rate_limited",
    message: "too many requests, retry shortly",
  }),
  502: errorResponse("The LLM failed; the user message is stored, retry with the same idempotency key", {
    code: "llm_failed",
    message: "the LLM did not answer in time; your message was stored, retry with the same idempotency key or message id",
  }),
  500: errorResponse("The configuration is invalid (every problem in details), or an internal error", {
    code: "config_invalid",
    message: "invalid configuration: MEMORY_MAX_TOKENS must be an integer",
  }),
  503: errorResponse("An upstream is unavailable or not configured; retry after Retry-After", {
    code: "upstream_unavailable",
    message: "redis is unavailable, retry shortly",
  }),
} as const;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** An authenticated route can also be refused by the access rules (403) and the rate limit (429). */
type Guarded<S extends ErrorStatus> = S | (401 extends S ? 403 | 429 : never);

/** The error responses of a route: `...errors(400, 401, 503)`; listing 401 adds 403 and 429. */
export function errors<S extends ErrorStatus>(...statuses: S[]): Pick<typeof ERROR_RESPONSES, Guarded<S>> {
  const all: ErrorStatus[] = statuses.includes(401 as S) ? [...new Set<ErrorStatus>([...statuses, 403, 429])].sort() : statuses;
  return Object.fromEntries(all.map((s) => [s, ERROR_RESPONSES[s]])) as Pick<typeof ERROR_RESPONSES, Guarded<S>>;
}

/** What every `/v1` route can answer: bad input, no key, an upstream down. */
export const errorResponses = errors(400, 401, 503);
/** ... and a route that takes a JSON body: too large, not JSON. */
export const bodyErrorResponses = errors(400, 401, 413, 415, 503);

/** A JSON response entry of a route's `responses`, with the example the reference shows. */
export const jsonResponse = <S extends z.ZodType>(schema: S, description: string, example?: z.input<S>) => ({
  description,
  content: { "application/json": { schema, ...(example === undefined ? {} : { example }) } as { schema: S; example?: z.input<S> } },
});

/** An untyped answer: fails the spec lint (`rule/success-response-*` in redocly.yaml); declare the real shape in `src/http/schemas/`. */
export const AnyObject = z.object({}).passthrough();

/** Every `/v1` route takes `Authorization: Bearer <key or token>`. */
export const security = [{ bearer: [] }];
