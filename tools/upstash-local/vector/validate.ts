/** @module Readers for Vector request fields that narrow values or throw Upstash-style errors. */
import { badRequest, unprocessable } from "./errors.ts";

/** Readers for request fields: each returns the narrowed value or throws an Upstash-style error. */

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** `null` counts as absent everywhere: some clients send `null` for unset options. */
export const present = (v: unknown): boolean => v !== undefined && v !== null;

export function requireObject(v: unknown, what: string): Json {
  if (!isObject(v)) throw badRequest(`Invalid request body: ${what} must be a JSON object`);
  return v;
}

/** Ids may be numbers; they are stored and returned as strings. */
export function readId(v: unknown, field = "id"): string {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v !== "string") throw badRequest(`Invalid request body: ${field} must be a string or a number`);
  if (v.length === 0) throw badRequest("Vector id cannot be empty");
  return v;
}

export function readIds(v: unknown): string[] {
  if (!Array.isArray(v)) throw badRequest("Invalid request body: ids must be an array of strings or numbers");
  return v.map((id: unknown) => readId(id, "ids[]"));
}

export function readVector(v: unknown, dimension: number): number[] {
  if (!Array.isArray(v)) throw badRequest("Invalid request body: vector must be an array of numbers");
  for (const x of v as unknown[]) {
    if (typeof x !== "number" || !Number.isFinite(x)) {
      throw badRequest("Invalid request body: vector must contain only finite numbers");
    }
  }
  if (v.length !== dimension) throw unprocessable(`Invalid vector dimension: ${v.length}, expected: ${dimension}`);
  return v as number[];
}

export function readBool(v: unknown, field: string): boolean {
  if (!present(v)) return false;
  if (typeof v !== "boolean") throw badRequest(`Invalid request body: ${field} must be a boolean`);
  return v;
}

export function readString(v: unknown, field: string): string | undefined {
  if (!present(v)) return undefined;
  if (typeof v !== "string") throw badRequest(`Invalid request body: ${field} must be a string`);
  return v;
}

/** A non-negative integer no larger than `max`; `fallback` when absent. */
export function readCount(v: unknown, field: string, fallback: number, max: number): number {
  if (!present(v)) return fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    throw badRequest(`Invalid request body: ${field} must be a non-negative integer`);
  }
  if (v > max) throw badRequest(`${field} must be less than or equal to ${max}, got ${v}`);
  return v;
}

/** Whether an object carries any of the include flags. */
export interface Includes {
  metadata: boolean;
  vectors: boolean;
  data: boolean;
}

export function readIncludes(body: Json): Includes {
  return {
    metadata: readBool(body.includeMetadata, "includeMetadata"),
    vectors: readBool(body.includeVectors, "includeVectors"),
    data: readBool(body.includeData, "includeData"),
  };
}
