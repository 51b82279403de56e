/** @module MemoryApiError, the client's error for a non-2xx answer or stream error, built from the service's error body. */
import type { ErrorBody } from "./types.ts";

/** A non-2xx answer of the API (or an `event: error` of a stream), with the service's error code. */
export class MemoryApiError extends Error {
  override readonly name = "MemoryApiError";

  constructor(
    /** HTTP status; for an error inside a stream, the status the stream began with (200). */
    readonly status: number,
    /** The service's error code, e.g. `validation_failed`, `unauthorized`, `llm_unavailable`. */
    readonly code: string,
    message: string,
    readonly details: unknown,
    /** Seconds to wait before retrying, from `Retry-After` (503 answers carry it). */
    readonly retryAfter: number | undefined,
  ) {
    super(message);
  }

  /** From a response and its parsed body (JSON when the service wrote it, text otherwise). */
  static from(response: Response, body: unknown): MemoryApiError {
    const retry = Number(response.headers.get("retry-after") ?? Number.NaN);
    const retryAfter = Number.isFinite(retry) ? retry : undefined;
    if (isErrorBody(body)) return new MemoryApiError(response.status, body.error.code, body.error.message, body.error.details, retryAfter);
    const text = typeof body === "string" && body !== "" ? body.slice(0, 200) : response.statusText || "request failed";
    return new MemoryApiError(response.status, "http_error", `HTTP ${response.status}: ${text}`, undefined, retryAfter);
  }
}

export function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string";
}
