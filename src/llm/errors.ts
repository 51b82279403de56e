/** @module Maps whatever the OpenAI SDK throws (timeout, abort, connection, API error) to the domain's LlmError. */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { LlmError } from "../memory/errors.ts";

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
