/** @module ApiError and the error codes the HTTP layer answers with, plus the 503 helper for an unavailable upstream. */
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Machine-readable error codes the API answers with. */
export type ErrorCode =
  | "bad_request"
  | "invalid_json"
  | "validation_failed"
  | "payload_too_large"
  | "unsupported_media_type"
  | "unauthorized"
  | "forbidden"
  | "rate_limited"
  | "tokens_not_configured"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "config_invalid"
  | "encryption_key_missing"
  | "encryption_key_invalid"
  | "upstream_unavailable"
  | "llm_not_configured"
  | "llm_failed"
  | "llm_rejected"
  | "internal";

/**
 * The one error the HTTP layer throws; `onError` renders it as
 * `{"error": {"code", "message", "details"?}}` with its status.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(
    status: ContentfulStatusCode,
    code: ErrorCode,
    message: string,
    options: { details?: unknown; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  toJSON(): { error: { code: ErrorCode; message: string; details?: unknown } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

/** Every 503 the API answers: always with Retry-After, so clients back off and retry. */
export function serviceUnavailable(
  code: "upstream_unavailable" | "llm_not_configured",
  message: string,
  retryAfterSeconds: number,
  cause?: unknown,
): ApiError {
  return new ApiError(503, code, message, { headers: { "retry-after": String(retryAfterSeconds) }, cause });
}
