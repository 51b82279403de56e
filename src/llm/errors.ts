import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";

/**
 * What went wrong with an LLM call:
 * - `timeout`: no (or no further) answer within the time limit;
 * - `upstream`: the provider failed, refused or could not be reached;
 * - `bad_output`: it answered, but the answer is unusable (empty, not the requested JSON);
 * - `aborted`: the caller's AbortSignal fired (nobody is waiting for the answer).
 */
export type LlmErrorKind = "timeout" | "upstream" | "bad_output" | "aborted";

/**
 * An LLM failure with a message safe to log or return: it never carries the API key, the prompt
 * or the provider's raw response body, only the kind, the HTTP status and the provider's error code.
 */
export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  /** HTTP status of the provider's response, when there was one. */
  readonly status: number | undefined;
  /** The provider's machine-readable error code (e.g. `rate_limit_exceeded`), when it sent one. */
  readonly code: string | undefined;
  /** Whether trying again later may succeed. */
  readonly retryable: boolean;

  constructor(kind: LlmErrorKind, message: string, details: { status?: number | undefined; code?: string | undefined } = {}) {
    super(message);
    this.name = "LlmError";
    this.kind = kind;
    this.status = details.status;
    this.code = details.code;
    const status = details.status ?? 0;
    this.retryable = kind === "timeout" || (kind === "upstream" && (status === 0 || status === 408 || status === 409 || status === 429 || status >= 500));
  }
}

/** Only short identifier-like codes pass; anything else could be echoed user content. */
function safeCode(code: unknown): string | undefined {
  return typeof code === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? code : undefined;
}

/**
 * Maps anything an SDK call threw to an {@link LlmError}. `aborted` tells whether the caller's own
 * signal fired, because the SDK reports a user abort and an internal cancellation the same way.
 */
export function toLlmError(err: unknown, aborted = false): LlmError {
  if (err instanceof LlmError) return err;
  if (err instanceof APIConnectionTimeoutError) return new LlmError("timeout", "LLM request timed out");
  if (err instanceof APIUserAbortError || (err instanceof Error && err.name === "AbortError")) {
    return aborted ? new LlmError("aborted", "LLM request aborted by the caller") : new LlmError("timeout", "LLM request timed out");
  }
  if (err instanceof APIConnectionError) return new LlmError("upstream", "LLM provider unreachable");
  if (err instanceof APIError) {
    const status = typeof err.status === "number" ? err.status : undefined;
    return new LlmError("upstream", `LLM provider error${status ? ` (HTTP ${status})` : ""}`, { status, code: safeCode(err.code) });
  }
  return new LlmError("upstream", "LLM request failed");
}
