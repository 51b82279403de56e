import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { LlmError, MemoryError, UpstreamUnavailable } from "../memory/errors.ts";
import { ApiError, serviceUnavailable, type ErrorCode } from "./errors.ts";

/** Renders every failure as `{"error": {...}}`; nothing escapes as a bare 500. */
export function renderError(err: Error, c: Context): Response {
  const apiError = toApiError(err);
  if (apiError.status >= 500) {
    console.error(JSON.stringify({ level: "error", code: apiError.code, message: err.message, cause: String(apiError.cause ?? "") }));
  }
  return c.json(apiError.toJSON(), apiError.status, apiError.headers);
}

const MEMORY_STATUS = {
  conflict: [409, "conflict"],
  not_found: [404, "not_found"],
  invalid: [400, "bad_request"],
  too_large: [413, "payload_too_large"],
} as const satisfies Record<MemoryError["kind"], readonly [number, ErrorCode]>;

/** A model failure: 502 with a safe message. What the turn stored stays stored. */
export function llmFailure(err: LlmError): ApiError {
  const message =
    err.kind === "timeout" ? "the LLM did not answer in time" : err.kind === "bad_output" ? "the LLM returned an unusable answer" : "the LLM request failed";
  return new ApiError(502, "llm_failed", `${message}; your message was stored, retry with the same message id`, { details: { kind: err.kind }, cause: err });
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof UpstreamUnavailable) {
    if (err.upstream === "llm" && err.reason === "not_configured") return serviceUnavailable("llm_not_configured", err.message, 3600, err);
    const message = err.reason === "not_configured" ? err.message : `${err.upstream} is unavailable, retry shortly`;
    return serviceUnavailable("upstream_unavailable", message, err.reason === "not_configured" ? 3600 : err.retryAfterSeconds, err);
  }
  if (err instanceof LlmError) return llmFailure(err);
  if (err instanceof MemoryError) {
    const [status, code] = MEMORY_STATUS[err.kind];
    return new ApiError(status, code, err.message, { cause: err });
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
