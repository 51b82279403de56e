/** @module Renders every failure as the API's JSON error (or OpenAI's error shape on proxy paths) and logs 5xx answers. */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import {
  AgentMemoryError,
  type ConfigError,
  type LlmError,
  type MemoryError,
  type StoredDataUnreadable,
  type UpstreamUnavailable,
} from "../memory/errors.ts";
import type { MemoryLogger } from "../memory/ports/index.ts";
import type { AppEnv } from "./context-types.ts";
import { ApiError, serviceUnavailable, type ErrorCode, type ToolInputError } from "./errors.ts";

/** Paths that speak the OpenAI API, errors included. */
const OPENAI_PATHS = new Set(["/v1/chat/completions", "/v1/models"]);

/**
 * Renders every failure as `{"error": {"code", "message", "details"?}}`, or on the OpenAI-compatible
 * paths as OpenAI does (`{"error": {"message", "type", "param", "code"}}`); nothing escapes as a bare 500.
 * A 5xx is logged through the request's logger, or `fallback` when its runtime could not be built.
 */
export function renderError(err: Error, c: Context<AppEnv>, fallback?: MemoryLogger): Response {
  const apiError = toApiError(err);
  if (apiError.status >= 500) {
    const where = { requestId: c.var.requestId, tenant: c.var.tenant, session: c.var.session };
    const logger: MemoryLogger | undefined = c.var.runtime?.logger ?? fallback;
    logger?.error("request failed", { ...where, code: apiError.code, message: err.message, cause: String(apiError.cause ?? "") });
  }
  const body = OPENAI_PATHS.has(c.req.path) ? openAIError(apiError) : apiError.toJSON();
  return c.json(body, apiError.status, apiError.headers);
}

/** An error in OpenAI's shape: the SDKs read `message` and `code`, and `type` tells client from server errors. */
export function openAIError(err: ApiError): { error: { message: string; type: string; param: string | null; code: string } } {
  const type = err.status === 401 ? "authentication_error" : err.status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message: err.message, type, param: null, code: err.code } };
}

const MEMORY_STATUS = {
  conflict: [409, "conflict"],
  not_found: [404, "not_found"],
  invalid: [400, "bad_request"],
  too_large: [413, "payload_too_large"],
} as const satisfies Record<MemoryError["kind"], readonly [number, ErrorCode]>;

/** Provider statuses that mean the request itself was wrong (a bad tool schema, an unknown model). */
const REJECTED = new Set([400, 404, 413, 422]);

/**
 * A model failure: 502 with a safe message, or 400 when the provider rejected the request as
 * invalid (its status and code are named, its message is not: it may quote the prompt). What the
 * turn stored stays stored.
 */
export function llmFailure(err: LlmError): ApiError {
  if (err.kind === "upstream" && err.status !== undefined && REJECTED.has(err.status)) {
    const what = `HTTP ${err.status}${err.code ? `, ${err.code}` : ""}`;
    return new ApiError(400, "llm_rejected", `the LLM rejected the request (${what}); fix the request, your message was stored`, {
      details: { kind: err.kind, status: err.status, ...(err.code ? { providerCode: err.code } : {}) },
      cause: err,
    });
  }
  const message =
    err.kind === "timeout"
      ? "the LLM did not answer in time"
      : err.kind === "bad_output"
        ? "the LLM returned an unusable answer"
        : "the LLM request failed";
  const retry = "your message was stored, retry with the same idempotency key or message id";
  return new ApiError(502, "llm_failed", `${message}; ${retry}`, { details: { kind: err.kind }, cause: err });
}

/**
 * The service's errors by category (see `ErrorCategory`): each category belongs to one class, so
 * the category says which fields an error has. A store's unreadable reply has none the answer uses.
 */
type OwnError =
  | ApiError
  | MemoryError
  | UpstreamUnavailable
  | LlmError
  | StoredDataUnreadable
  | ConfigError
  | ToolInputError
  | (AgentMemoryError & { category: "unexpected_reply" });

/** Every failure as the API answers it: the service's own errors by category, Hono's by status, the rest as 500 `internal`. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof AgentMemoryError) return ownError(err as OwnError);
  if (err instanceof HTTPException) return honoError(err);
  return internal(err);
}

const internal = (err: unknown): ApiError => new ApiError(500, "internal", "internal error", { cause: err });

function ownError(err: OwnError): ApiError {
  switch (err.category) {
    case "http":
      return err;
    case "refused": {
      const [status, code] = MEMORY_STATUS[err.kind];
      return new ApiError(status, code, err.message, { cause: err });
    }
    case "unavailable": {
      if (err.upstream === "llm" && err.reason === "not_configured")
        return serviceUnavailable("llm_not_configured", err.message, 3600, err);
      const message = err.reason === "not_configured" ? err.message : `${err.upstream} is unavailable, retry shortly`;
      return serviceUnavailable("upstream_unavailable", message, err.reason === "not_configured" ? 3600 : err.retryAfterSeconds, err);
    }
    case "llm":
      return llmFailure(err);
    // A configuration problem of the deployment, not of the request: retrying will not help.
    case "unreadable":
      return new ApiError(500, err.code, err.message, { cause: err });
    case "config":
      return new ApiError(500, "config_invalid", err.message, { details: err.problems });
    // A tool's input error is answered as a tool result (see the MCP server); a reply no adapter
    // could read, unguarded, is a bug.
    case "tool_input":
    case "unexpected_reply":
      return internal(err);
  }
}

/** Hono's own refusals (a body that is not JSON, a wrong media type) in the API's codes. */
function honoError(err: HTTPException): ApiError {
  const status = err.status;
  if (status === 400 && /malformed json/i.test(err.message)) {
    return new ApiError(400, "invalid_json", "request body is not valid JSON", { cause: err });
  }
  const codes: Partial<Record<number, ErrorCode>> = {
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
  };
  const message = status === 415 ? "send the body as JSON (content-type: application/json)" : err.message || "request failed";
  return new ApiError(status, codes[status] ?? "bad_request", message, { cause: err });
}
