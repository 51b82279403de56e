import { MemoryError } from "./memory/errors.ts";

export type UpstreamName = "redis" | "vector" | "llm";

/** A dependency (Redis, Vector, LLM) failed or timed out. Rendered as 503 with Retry-After. */
export class UpstreamError extends Error {
  readonly upstream: UpstreamName;

  constructor(upstream: UpstreamName, cause: unknown) {
    super(`${upstream} request failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "UpstreamError";
    this.upstream = upstream;
  }
}

/**
 * Wraps an adapter so any rejection of its async methods becomes an {@link UpstreamError}, except
 * deliberate domain errors, which pass through. Handlers then never guess where an error came from.
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

function wrap(err: unknown, upstream: UpstreamName): unknown {
  if (err instanceof MemoryError || err instanceof UpstreamError) return err;
  return new UpstreamError(upstream, err);
}
