/** @module Vector `/update` endpoint: changes vectors, data or metadata of an existing record. */
import { embedRecords, type VectorContext } from "./context.ts";
import { badRequest } from "./errors.ts";
import { checkMetadataDepth, checkMetadataSize, readData } from "./limits.ts";
import { mergePatch } from "./merge-patch.ts";
import { readUpdateParts, rejectForeignParts } from "./parts.ts";
import { isObject, present, readId, readString, requireObject, type Json } from "./validate.ts";

/**
 * `POST /update/{ns}`: changes vector, sparse vector, data and/or metadata of an existing record.
 * `metadataUpdateMode` is `OVERWRITE` (default) or `PATCH` (RFC 7396). New data is re-embedded on
 * an embedding index unless vectors are given too; metadata is kept unless it is updated.
 */
export async function update(ctx: VectorContext, namespace: string, body: unknown): Promise<{ updated: number }> {
  const req = requireObject(body, "the update payload");
  rejectForeignParts(ctx, req);
  const id = readId(req.id);
  const parts = readUpdateParts(ctx, req);
  const data = readData(req.data);
  if (present(req.metadata) && !isObject(req.metadata)) throw badRequest("Invalid request body: metadata must be a JSON object");
  const metadata = isObject(req.metadata) ? req.metadata : undefined;
  if (metadata) checkMetadataDepth(metadata);
  const mode = (readString(req.metadataUpdateMode, "metadataUpdateMode") ?? "OVERWRITE").toUpperCase();
  if (mode !== "OVERWRITE" && mode !== "PATCH") {
    throw badRequest("Invalid request body: metadataUpdateMode must be OVERWRITE or PATCH");
  }
  const givenParts = parts.vector !== undefined || parts.sparse !== undefined;
  if (!givenParts && data === undefined && metadata === undefined) {
    const what = ctx.config.kind === "dense" ? "vector" : ctx.config.kind === "sparse" ? "sparseVector" : "vector, sparseVector";
    throw badRequest(`Invalid request body: at least one of ${what}, data or metadata must be provided`);
  }
  const newParts = givenParts ? parts : data !== undefined && ctx.config.embedding ? ((await embedRecords(ctx, [data]))[0] ?? {}) : {};
  // The record is looked up after the embedding, so a write made meanwhile is not undone.

  const ns = ctx.store.get(namespace);
  const record = ns?.get(id);
  if (!ns || !record) return { updated: 0 };
  let newMetadata: Json | undefined;
  if (metadata !== undefined) {
    const merged = mode === "PATCH" ? mergePatch(record.metadata ?? {}, metadata) : metadata;
    newMetadata = isObject(merged) ? merged : {};
    checkMetadataSize(Buffer.byteLength(JSON.stringify(newMetadata)));
  }
  if (newParts.vector) ns.setVector(record, newParts.vector);
  if (newParts.sparse) ns.setSparse(record, newParts.sparse);
  const changes: { metadata?: Json; data?: string } = {};
  if (newMetadata !== undefined) changes.metadata = newMetadata;
  if (data !== undefined) changes.data = data;
  ns.patch(record, changes);
  ctx.changed();
  return { updated: 1 };
}
