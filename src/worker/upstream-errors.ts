/** @module Upstream failures mapped to the domain's errors: a rejection is the client's, anything else an outage. */
import { AgentMemoryError, MemoryError, UpstreamUnavailable, type UpstreamName } from "../memory/errors.ts";

/**
 * An Upstash client throws `UpstashError` when the service answered with an error body, but it
 * keeps only the message, not the status. Vector's validation errors are told by their wording
 * ("Invalid request body: ...", "... exceeds the limit ...", "nested too deeply"); anything else
 * (network, timeout, a server-side error, a body that is not JSON) counts as an outage, because
 * calling a rejection an outage only costs a retry, while the reverse would make clients give up.
 */
const REJECTION =
  /^invalid\b|invalid request|must be|exceeds the limit|nested too deeply|too many (?!requests)|is not supported|cannot be/i;

function isRejection(err: unknown): err is Error {
  return err instanceof Error && err.name === "UpstashError" && REJECTION.test(err.message);
}

function wrap(err: unknown, upstream: UpstreamName): unknown {
  // The service's own errors pass through, but a reply the adapter could not read is the upstream's failure.
  if (err instanceof AgentMemoryError && err.category !== "unexpected_reply") return err;
  // Vector rejects what it cannot store or read (a bad cursor, metadata it refuses): the client's error.
  if (upstream === "vector" && isRejection(err)) {
    return new MemoryError("invalid", `the vector store rejected the request: ${err.message.slice(0, 200)}`);
  }
  const reason = err instanceof Error ? err.message : String(err);
  return new UpstreamUnavailable(upstream, `${upstream} request failed: ${reason.slice(0, 200)}`, { cause: err });
}

/**
 * Wraps an adapter so any failure of its methods becomes an {@link UpstreamUnavailable} (503 with
 * Retry-After), or a {@link MemoryError} when the upstream rejected the request itself (4xx);
 * deliberate domain errors pass through. Handlers then never guess where an error came from.
 */
export function guardUpstream<T extends object>(adapter: T, upstream: UpstreamName): T {
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (err) {
          throw wrap(err, upstream);
        }
        if (result instanceof Promise) return result.catch((err: unknown) => Promise.reject(wrap(err, upstream)));
        return result;
      };
    },
  });
}

/** A stand-in for an adapter whose upstream is not configured: every call fails with a clear 503. */
export function unconfigured<T extends object>(upstream: UpstreamName, message: string): T {
  return new Proxy({} as T, {
    get() {
      return () => Promise.reject(new UpstreamUnavailable(upstream, message, { reason: "not_configured" }));
    },
  });
}
