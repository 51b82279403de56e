import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError, upstreamUnavailable, type ErrorCode } from "./errors.ts";
import { MemoryError } from "../memory/errors.ts";
import { UpstreamError } from "../upstream.ts";

/** Renders every failure as `{"error": {...}}`; nothing escapes as a bare 500. */
export function renderError(err: Error, c: Context): Response {
  const apiError = toApiError(err);
  if (apiError.status >= 500) {
    console.error(JSON.stringify({ level: "error", code: apiError.code, message: err.message, cause: String(apiError.cause ?? "") }));
  }
  return c.json(apiError.toJSON(), apiError.status, apiError.headers);
}

function toApiError(err: Error): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof UpstreamError) return upstreamUnavailable(err.upstream, err);
  if (err instanceof MemoryError) {
    if (err.kind === "conflict") return new ApiError(409, "conflict", err.message, { cause: err });
    if (err.kind === "not_found") return new ApiError(404, "not_found", err.message, { cause: err });
    return new ApiError(400, "bad_request", err.message, { cause: err });
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status === 400 && /malformed json/i.test(err.message)) {
      return new ApiError(400, "invalid_json", "request body is not valid JSON", { cause: err });
    }
    const codes: Partial<Record<number, ErrorCode>> = { 401: "unauthorized", 404: "not_found", 413: "payload_too_large", 415: "unsupported_media_type" };
    const message = status === 415 ? "send the body as JSON (content-type: application/json)" : err.message || "request failed";
    return new ApiError(status, codes[status] ?? "bad_request", message, { cause: err });
  }
  return new ApiError(500, "internal", "internal error", { cause: err });
}
