/** @module Rewrites the OpenAPI document's schemas into equivalent forms the API reference page (Scalar) validates. */

/**
 * zod writes "anything" as the empty schema `{}` (`z.unknown()` as an array's items or a record's
 * values) and a union of plain types as `anyOf` alone. Both are valid JSON Schema, but the
 * reference page's document check wants every schema to name a `type` (or be a `$ref`), and logs
 * "document validation errors" for the schemas that hold one (MessageInput, Fact, ...). The
 * rewrites keep the meaning: `additionalProperties: {}` is `true`, `items: {}` says nothing, and a
 * union of plain types is one schema with a list of types (see `mergedBranches`).
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isEmpty = (value: unknown): boolean => isObject(value) && Object.keys(value).length === 0;

/**
 * A union of branches that each name one distinct type, as one schema with a list of types: the
 * same meaning, because every other keyword of a branch (`items`, `format`, `minimum`, ...) applies
 * to its own type only. Null when the branches cannot merge: a `$ref`, a nested union, two of one
 * type, or a keyword two of them (or the parent) set.
 */
function mergedBranches(parent: Json, branches: unknown[]): Json | null {
  const types: string[] = [];
  const merged: Json = {};
  const taken = new Set(Object.keys(parent));
  for (const branch of branches) {
    if (!isObject(branch) || typeof branch.type !== "string" || types.includes(branch.type)) return null;
    types.push(branch.type);
    for (const [key, value] of Object.entries(branch)) {
      if (key === "type") continue;
      if (taken.has(key)) return null;
      taken.add(key);
      merged[key] = value;
    }
  }
  return types.length > 1 ? { type: types, ...merged } : null;
}

/** Rewrites one schema and every schema inside it, in place. */
export function compatSchema(schema: unknown): void {
  if (!isObject(schema)) return;
  if (isEmpty(schema.additionalProperties)) schema.additionalProperties = true;
  if (isEmpty(schema.items)) delete schema.items;
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (schema.type !== undefined || !Array.isArray(branches)) continue;
    const { [key]: _union, ...rest } = schema;
    const merged = mergedBranches(rest, branches);
    if (merged === null) continue;
    delete schema[key];
    Object.assign(schema, merged);
  }
  for (const key of ["items", "additionalProperties", "not", "contentSchema"]) compatSchema(schema[key]);
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
    const list = schema[key];
    if (Array.isArray(list)) for (const item of list) compatSchema(item);
  }
  for (const key of ["properties", "patternProperties"]) {
    const map = schema[key];
    if (isObject(map)) for (const value of Object.values(map)) compatSchema(value);
  }
}

/** Every schema of a media type map (`content` of a body, a response or a parameter). */
function compatContent(content: unknown): void {
  if (isObject(content)) for (const media of Object.values(content)) if (isObject(media)) compatSchema(media.schema);
}

/** Rewrites every schema of an OpenAPI 3.1 document in place: components, parameters, bodies, responses, headers. */
export function compatDocument(document: object): void {
  const doc = document as Json;
  const components = isObject(doc.components) ? doc.components : {};
  if (isObject(components.schemas)) for (const schema of Object.values(components.schemas)) compatSchema(schema);
  for (const item of isObject(doc.paths) ? Object.values(doc.paths) : []) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
        if (isObject(parameter)) compatSchema(parameter.schema);
      }
      if (isObject(operation.requestBody)) compatContent(operation.requestBody.content);
      for (const response of isObject(operation.responses) ? Object.values(operation.responses) : []) {
        if (!isObject(response)) continue;
        compatContent(response.content);
        if (isObject(response.headers))
          for (const header of Object.values(response.headers)) if (isObject(header)) compatSchema(header.schema);
      }
    }
  }
}
