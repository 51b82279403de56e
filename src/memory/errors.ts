/**
 * @module The service's one error hierarchy: every error it throws on purpose extends {@link AgentMemoryError}, whose stable `category` the HTTP layer switches on.
 */

/**
 * What kind of failure an error is. Stable: logs, the HTTP layer's mapping and tests rely on it.
 * Each category belongs to one class (and its subclasses):
 * - `refused`: {@link MemoryError}, a deliberate refusal of the request;
 * - `unavailable`: {@link UpstreamUnavailable}, a dependency down or not configured;
 * - `llm`: {@link LlmError}, a model call failed;
 * - `unreadable`: {@link StoredDataUnreadable}, stored data sealed under a key the deployment lacks;
 * - `config`: {@link ConfigError}, the deployment's configuration is invalid;
 * - `unexpected_reply`: a store's `UnexpectedReply`, an answer its adapter cannot read (a bug or a
 *   broken upstream: guarded adapters turn it into `unavailable`);
 * - `http`: the HTTP layer's `ApiError`, already a status and a code;
 * - `tool_input`: an MCP tool's `ToolInputError`, a call the model can fix.
 */
export type ErrorCategory = "refused" | "unavailable" | "llm" | "unreadable" | "config" | "unexpected_reply" | "http" | "tool_input";

/**
 * The root of every error the service throws on purpose. Whatever is not one (a bug, a vendor
 * SDK's own error) is an internal error to the HTTP layer unless an adapter has mapped it.
 */
export abstract class AgentMemoryError extends Error {
  abstract readonly category: ErrorCategory;
}

/** A deliberate refusal: the request conflicts with stored state, names nothing, or is invalid. */
export class MemoryError extends AgentMemoryError {
  override readonly category = "refused";
  readonly kind: "conflict" | "not_found" | "invalid" | "too_large";

  constructor(kind: MemoryError["kind"], message: string) {
    super(message);
    this.name = "MemoryError";
    this.kind = kind;
  }
}

/** The upstreams the domain depends on. */
export type UpstreamName = "redis" | "vector" | "llm" | "backups";

/**
 * A dependency (Redis, Vector) failed, timed out or is not configured: worth retrying later.
 * An upstream that answered "your request is invalid" is a {@link MemoryError} instead.
 */
export class UpstreamUnavailable extends AgentMemoryError {
  override readonly category = "unavailable";
  readonly upstream: UpstreamName;
  /** `not_configured`: the deployment has no such upstream, so retrying will not help. */
  readonly reason: "down" | "not_configured";
  /** Seconds a client should wait before retrying. */
  readonly retryAfterSeconds: number;

  constructor(
    upstream: UpstreamName,
    message: string,
    options: { cause?: unknown; reason?: "down" | "not_configured"; retryAfterSeconds?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "UpstreamUnavailable";
    this.upstream = upstream;
    this.reason = options.reason ?? "down";
    this.retryAfterSeconds = options.retryAfterSeconds ?? 2;
  }
}

/**
 * What went wrong with a model call (chat, summary, extraction, embedding):
 * - `timeout`: no (or no further) answer within the time limit;
 * - `upstream`: the provider failed, refused or could not be reached;
 * - `bad_output`: it answered, but the answer is unusable (empty, not the requested JSON);
 * - `aborted`: the caller's AbortSignal fired (nobody is waiting for the answer).
 */
export type LlmErrorKind = "timeout" | "upstream" | "bad_output" | "aborted";

/**
 * A model failure with a message safe to log or return: it never carries the API key, the prompt
 * or the provider's raw response body, only the kind, the HTTP status and the provider's error code.
 */
export class LlmError extends AgentMemoryError {
  override readonly category = "llm";
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
    this.retryable =
      kind === "timeout" || (kind === "upstream" && (status === 0 || status === 408 || status === 409 || status === 429 || status >= 500));
  }
}

/**
 * Stored data this deployment cannot read with its configuration: it was sealed under an encryption
 * key that is not configured (`encryption_key_missing`) or does not match (`encryption_key_invalid`).
 * An operator must fix the configuration; retrying will not help, and nothing unreadable is returned.
 */
export class StoredDataUnreadable extends AgentMemoryError {
  override readonly category = "unreadable";
  readonly code: "encryption_key_missing" | "encryption_key_invalid";

  constructor(code: StoredDataUnreadable["code"], message: string) {
    super(message);
    this.name = "StoredDataUnreadable";
    this.code = code;
  }
}

/**
 * The bindings hold bad values: every problem is listed so one fix round is enough. The Worker's
 * configuration parser throws it; the HTTP layer answers 500 `config_invalid` with the problems.
 */
export class ConfigError extends AgentMemoryError {
  override readonly category = "config";
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/** What a caught value says, for logs and reports: an error's message, anything else as text. */
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
