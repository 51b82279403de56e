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
