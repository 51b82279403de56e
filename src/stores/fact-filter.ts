/** Vector filter strings built from validated parts: fact types, content ids, agent, time, metadata. */
import {
  booleanOf,
  MAX_METADATA_FILTER_VALUE,
  MAX_METADATA_FILTERS,
  METADATA_FILTER_KEY,
  numberOf,
  type FactFilter,
} from "../memory/facts/index.ts";
import { isValidId } from "../memory/ids.ts";
import { FACT_TYPES, type FactType } from "../memory/model.ts";
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

/** `supersededBy = '<id>'`: the facts a fact superseded. Throws unless `id` is a valid id (no quote can pass). */
export function supersededByFilter(id: string): string {
  if (!isValidId(id)) throw new InvalidStoreInput("invalid fact id");
  return `supersededBy = '${id}'`;
}

/**
 * Recall never sees a superseded fact: the field is set only when a newer statement replaced the
 * fact, so "no such field" is "still true" (facts stored before supersession existed included).
 */
export const CURRENT_FACTS_FILTER = "HAS NOT FIELD supersededAt";

/** A metadata value as a quoted literal: the quote it does not contain; none of `\`, control characters. */
function quoted(value: string): string {
  // Escaping inside Vector filter strings is not documented, so nothing here relies on it.
  // eslint-disable-next-line no-control-regex
  if (value.length > MAX_METADATA_FILTER_VALUE || /[\\\u0000-\u001f\u007f]/.test(value))
    throw new InvalidStoreInput("metadata filter value not allowed");
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  throw new InvalidStoreInput("metadata filter value not allowed");
}

/** `metadata.<key> = <value>`, also matching the number or boolean the value spells (see `metadataEquals`). */
function metadataClause(key: string, value: string): string {
  if (!METADATA_FILTER_KEY.test(key)) throw new InvalidStoreInput("metadata filter key not allowed");
  const field = `metadata.${key}`;
  const alternatives = [`${field} = ${quoted(value)}`];
  // the value's own text: plain decimal digits only (see `numberOf`)
  if (numberOf(value) !== undefined) alternatives.push(`${field} = ${value}`);
  const b = booleanOf(value);
  if (b !== undefined) alternatives.push(`${field} = ${b ? "true" : "false"}`);
  return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(" OR ")})`;
}

const epochMs = (value: number): string => {
  if (!Number.isSafeInteger(value) || value < 0) throw new InvalidStoreInput("time filter must be epoch ms");
  return String(value);
};

/**
 * The Vector filter of a {@link FactFilter}, or `undefined` when it names nothing. Every part is
 * checked again here (ids by their pattern, keys by {@link METADATA_FILTER_KEY}, times as safe
 * integers), so no caller's text reaches the filter unchecked. Same rule as `matchesFilter`.
 */
export function scopeFilter(filter: FactFilter | undefined): string | undefined {
  if (!filter) return undefined;
  const clauses: string[] = [];
  if (filter.agentId === null) {
    clauses.push("HAS NOT FIELD agentId");
  } else if (filter.agentId !== undefined) {
    if (!isValidId(filter.agentId)) throw new InvalidStoreInput("invalid agent id");
    // An agent sees its own facts and the shared ones (written without an agent).
    clauses.push(`(agentId = '${filter.agentId}' OR HAS NOT FIELD agentId)`);
  }
  if (filter.createdAfter !== undefined) clauses.push(`createdAt >= ${epochMs(filter.createdAfter)}`);
  if (filter.createdBefore !== undefined) clauses.push(`createdAt < ${epochMs(filter.createdBefore)}`);
  const metadata = Object.entries(filter.metadata ?? {});
  if (metadata.length > MAX_METADATA_FILTERS) throw new InvalidStoreInput("too many metadata filters");
  for (const [key, value] of metadata) clauses.push(metadataClause(key, value));
  return allOf(clauses);
}

/** Clauses joined with AND, each in parentheses so any clause (an OR inside) composes; `undefined` for none. */
export function allOf(clauses: readonly (string | undefined)[]): string | undefined {
  const present = clauses.filter((c): c is string => c !== undefined && c !== "");
  if (present.length === 0) return undefined;
  return present.length === 1 ? present[0] : present.map((c) => `(${c})`).join(" AND ");
}
