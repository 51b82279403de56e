/** @module ApiError and the error codes the HTTP layer answers with, the 503 helper for an unavailable upstream, and the MCP tools' input error. */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AgentMemoryError } from "../memory/errors.ts";

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
 * The error the HTTP layer answers with, in the service's error hierarchy; `onError` renders it as
 * `{"error": {"code", "message", "details"?}}` with its status.
 */
export class ApiError extends AgentMemoryError {
  override readonly category = "http";
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

/** A problem the model can fix by calling again differently (becomes an `isError` result). */
export class ToolInputError extends AgentMemoryError {
  override readonly category = "tool_input";

  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
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
