/** Which of a user's facts a list or a recall covers: agent scope, creation time, metadata equality. */
import type { Fact } from "../model.ts";

/** Most metadata equalities one request may name. */
export const MAX_METADATA_FILTERS = 8;

/** A metadata key a filter may name: a plain identifier, so it is a field path with no syntax in it. */
export const METADATA_FILTER_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** Longest metadata value a filter may compare with. */
export const MAX_METADATA_FILTER_VALUE = 256;

/**
 * A filter over a user's facts, beside the fact types. Every part is optional and the parts are
 * combined with AND.
 */
export interface FactFilter {
  /**
   * The facts an agent sees: the ones written with this `agentId` and the shared ones (written
   * without an agent); `null`: the shared ones only (what a turn of no agent sees). Without it,
   * every fact of the user, whichever agent wrote it.
   */
  agentId?: string | null | undefined;
  /** Only facts created at or after this time (epoch ms). */
  createdAfter?: number | undefined;
  /** Only facts created before this time (epoch ms). */
  createdBefore?: number | undefined;
  /**
   * Only facts whose metadata holds each of these keys with this value. A value given as text
   * also matches the number or boolean it spells (`"3"` matches 3, `"true"` matches true).
   */
  metadata?: Readonly<Record<string, string>> | undefined;
}

/** True when `filter` names nothing (every fact passes). */
export function isEmptyFilter(filter: FactFilter | undefined): boolean {
  if (!filter) return true;
  return (
    filter.agentId === undefined &&
    filter.createdAfter === undefined &&
    filter.createdBefore === undefined &&
    Object.keys(filter.metadata ?? {}).length === 0
  );
}

/** The number a metadata filter value spells in plain decimal (`"3"`, `"-1.5"`; not `"007"`, `"1e3"`). */
export function numberOf(value: string): number | undefined {
  if (!/^-?(0|[1-9]\d{0,14})(\.\d{1,15})?$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** The boolean a metadata filter value spells (`"true"`, `"false"`). */
export function booleanOf(value: string): boolean | undefined {
  return value === "true" ? true : value === "false" ? false : undefined;
}

/**
 * Whether one stored metadata value equals a filter value (see {@link FactFilter.metadata}). As in
 * the Vector filter language, a boolean also equals the numbers 1 and 0.
 */
export function metadataEquals(stored: unknown, wanted: string): boolean {
  if (typeof stored === "string") return stored === wanted;
  const n = numberOf(wanted);
  const b = booleanOf(wanted);
  if (typeof stored === "number") return n === stored || (b !== undefined && (stored === 1 || stored === 0) && b === (stored === 1));
  if (typeof stored === "boolean") return b === stored || ((n === 1 || n === 0) && stored === (n === 1));
  return false;
}

/** Whether `fact` passes `filter`: the same rule the vector store's filter expresses. */
export function matchesFilter(fact: Fact, filter: FactFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.agentId !== undefined && fact.agentId !== undefined && fact.agentId !== filter.agentId) return false;
  if (filter.createdAfter !== undefined && fact.createdAt < filter.createdAfter) return false;
  if (filter.createdBefore !== undefined && fact.createdAt >= filter.createdBefore) return false;
  for (const [key, value] of Object.entries(filter.metadata ?? {})) {
    const metadata = fact.metadata;
    if (!metadata || !Object.hasOwn(metadata, key) || !metadataEquals(metadata[key], value)) return false;
  }
  return true;
}

/** How a list is narrowed besides types and the {@link FactFilter}. */
export interface FactListOptions {
  /** Only current facts: none a newer statement superseded (no `supersededAt`). @default false */
  current?: boolean | undefined;
}
