/** @module Shared call helpers of the client: unwrap a generated call's answer or throw, and turn query inputs into text parameters. */
import { MemoryApiError } from "./errors.ts";
import type { QueryInput } from "./types.ts";

/** A call of the generated client: its parsed body on success, its error body otherwise. */
type ApiCall<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/** Resolves to the success body, or throws a {@link MemoryApiError} built from the error answer. */
export async function unwrap<T>(call: ApiCall<T>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw MemoryApiError.from(response, error);
  return data as T;
}

/** Query parameters in the form the generated types declare (all of them travel as text). */
export function toQuery<Q>(input: QueryInput<Q>): Q {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    query[name] = Array.isArray(value) ? value.join(",") : String(value);
  }
  return query as Q;
}
