/** @module Sparse vector type, its validation and its stored size. */
import { badRequest } from "./errors.ts";
import { isObject } from "./validate.ts";

/** A sparse vector as Upstash sends and stores it: equal-length arrays, indices unique. */
export interface SparseVector {
  indices: number[];
  values: number[];
}

/** Non-zero entries a sparse vector may have (Upstash's documented limit). */
export const MAX_SPARSE_ENTRIES = 1000;
/** Sparse indices are int32 in Upstash; negative ones are rejected here. */
const MAX_SPARSE_INDEX = 0x7fffffff;

/**
 * Validates a `sparseVector` field: an object with `indices` (unique integers in 0..2^31-1) and
 * `values` (finite numbers) of the same length, at most 1000 entries. Returns copies, in the order
 * given (they round-trip as sent). Throws a 400 naming the problem.
 */
export function readSparseVector(v: unknown, field = "sparseVector"): SparseVector {
  if (!isObject(v) || !Array.isArray(v.indices) || !Array.isArray(v.values)) {
    throw badRequest(`Invalid request body: ${field} must be an object with indices and values arrays`);
  }
  const indices = v.indices as unknown[];
  const values = v.values as unknown[];
  if (indices.length !== values.length) {
    throw badRequest(
      `Invalid request body: ${field} indices and values must have the same length, got ${indices.length} and ${values.length}`,
    );
  }
  if (indices.length > MAX_SPARSE_ENTRIES) {
    throw badRequest(`${field} has ${indices.length} non-zero entries, more than the limit of ${MAX_SPARSE_ENTRIES}`);
  }
  const seen = new Set<number>();
  for (const i of indices) {
    if (typeof i !== "number" || !Number.isInteger(i) || i < 0 || i > MAX_SPARSE_INDEX) {
      throw badRequest(`Invalid request body: ${field} indices must be integers between 0 and ${MAX_SPARSE_INDEX}`);
    }
    if (seen.has(i)) throw badRequest(`Invalid request body: ${field} indices must be unique, ${i} appears more than once`);
    seen.add(i);
  }
  for (const x of values) {
    if (typeof x !== "number" || !Number.isFinite(x)) throw badRequest(`Invalid request body: ${field} values must be finite numbers`);
  }
  return { indices: [...(indices as number[])], values: [...(values as number[])] };
}

/** Approximate stored size: int32 indices and float32 values, as Upstash keeps them. */
export const sparseBytes = (s: SparseVector | undefined): number => (s ? s.indices.length * 8 : 0);
