/** @module Reads the dense and sparse vector parts of records, queries and updates according to the index kind. */
import type { Parts, VectorContext } from "./context.ts";
import { badRequest, DENSE_NOT_SUPPORTED, SPARSE_NOT_SUPPORTED, unprocessable } from "./errors.ts";
import { readSparseVector } from "./sparse-vector.ts";
import { present, readVector, type Json } from "./validate.ts";

/**
 * Reading `vector` / `sparseVector` by index kind. A dense index takes only `vector`, a sparse
 * index only `sparseVector`, a hybrid index both (reference B2). Sending the part an index does
 * not have is a 422, like Upstash's other "this index cannot do it" answers.
 */
export function readParts(ctx: VectorContext, body: Json): Parts {
  rejectForeignParts(ctx, body);
  const { dimension } = ctx.config;
  return {
    vector: present(body.vector) ? readVector(body.vector, dimension) : undefined,
    sparse: present(body.sparseVector) ? readSparseVector(body.sparseVector) : undefined,
  };
}

/** The part an index kind lacks is answered before anything else in the request is looked at. */
export function rejectForeignParts(ctx: VectorContext, body: Json): void {
  const { kind } = ctx.config;
  if (kind === "dense" && present(body.sparseVector)) throw unprocessable(SPARSE_NOT_SUPPORTED);
  if (kind === "sparse" && present(body.vector)) throw unprocessable(DENSE_NOT_SUPPORTED);
}

const required = (kind: string): string =>
  kind === "dense" ? "vector" : kind === "sparse" ? "sparseVector" : "both vector and sparseVector";

/** An upserted record must have every part of its index kind. */
export function readRecordParts(ctx: VectorContext, item: Json, id: string): Parts {
  const parts = readParts(ctx, item);
  const { kind } = ctx.config;
  if (kind === "hybrid" && (parts.vector === undefined) !== (parts.sparse === undefined)) {
    throw unprocessable(
      `A hybrid index requires both vector and sparseVector; id "${id}" has only ${parts.vector ? "vector" : "sparseVector"}`,
    );
  }
  if (parts.vector === undefined && parts.sparse === undefined) {
    const verb = kind === "hybrid" ? "are" : "is";
    throw badRequest(`Invalid request body: ${required(kind)} ${verb} required for id "${id}" (use /upsert-data to embed data)`);
  }
  return parts;
}

/** A query needs at least one part; on a hybrid index either part alone is a single-component query. */
export function readQueryParts(ctx: VectorContext, q: Json): Parts {
  const parts = readParts(ctx, q);
  if (parts.vector === undefined && parts.sparse === undefined) {
    const what = ctx.config.kind === "hybrid" ? "vector or sparseVector" : required(ctx.config.kind);
    throw badRequest(`Invalid request body: ${what} is required (use /query-data to query with data)`);
  }
  return parts;
}

/** An update may change no part or its kind's parts; on a hybrid index both together or neither. */
export function readUpdateParts(ctx: VectorContext, req: Json): Parts {
  const parts = readParts(ctx, req);
  if (ctx.config.kind === "hybrid" && (parts.vector === undefined) !== (parts.sparse === undefined)) {
    throw unprocessable("On a hybrid index, vector and sparseVector must be updated together");
  }
  return parts;
}

/** `/upsert-data` and `/query-data` take text only. */
export function rejectVectors(body: Json, endpoint: string, id?: string): void {
  for (const field of ["vector", "sparseVector"] as const) {
    if (present(body[field])) {
      throw badRequest(`Invalid request body: ${endpoint} takes data, not ${field}${id === undefined ? "" : ` (id "${id}")`}`);
    }
  }
}
