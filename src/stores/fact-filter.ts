import { FACT_TYPES, type FactType } from "../memory/types.ts";
import { InvalidStoreInput } from "./errors.ts";

/**
 * Quotes one value for the Vector filter language. Only values from `allowed` pass: nothing a
 * caller typed is ever spliced into a filter. Escaping is a second line of defense.
 */
export function filterLiteral(value: string, allowed: readonly string[]): string {
  if (!allowed.includes(value)) throw new InvalidStoreInput("value not allowed in a filter");
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/** `type IN ('fact', 'preference')`, or `undefined` (no filter) when no types are given. */
export function typeFilter(types: readonly FactType[] | undefined): string | undefined {
  if (!types || types.length === 0) return undefined;
  const unique = [...new Set(types)];
  return `type IN (${unique.map((t) => filterLiteral(t, FACT_TYPES)).join(", ")})`;
}

/** A content id as `factId` makes it: "f" and 24 hex digits. Nothing else reaches a filter. */
const CONTENT_ID = /^f[0-9a-f]{24}$/;

/** `contentId IN ('f...', ...)`; throws unless every value is a content id. */
export function contentIdFilter(contentIds: readonly string[]): string {
  if (contentIds.length === 0 || !contentIds.every((id) => CONTENT_ID.test(id))) throw new InvalidStoreInput("invalid content id");
  return `contentId IN (${[...new Set(contentIds)].map((id) => `'${id}'`).join(", ")})`;
}

/**
 * Recall never sees a superseded fact: the field is set only when a newer statement replaced the
 * fact, so "no such field" is "still true" (facts stored before supersession existed included).
 */
export const CURRENT_FACTS_FILTER = "HAS NOT FIELD supersededAt";

/** `a AND b` of the clauses given (undefined ones left out); undefined when none is left. */
export function allOf(...clauses: (string | undefined)[]): string | undefined {
  const present = clauses.filter((c): c is string => c !== undefined && c !== "");
  if (present.length === 0) return undefined;
  return present.length === 1 ? present[0] : present.map((c) => `(${c})`).join(" AND ");
}
