import { embed, type VectorContext } from "./context.ts";
import { badRequest } from "./errors.ts";
import { checkMetadataDepth, checkMetadataSize, readData } from "./limits.ts";
import { mergePatch } from "./merge-patch.ts";
import { isObject, present, readId, readString, readVector, rejectSparse, requireObject, type Json } from "./validate.ts";

/**
 * `POST /update/{ns}`: changes vector, data and/or metadata of an existing record.
 * `metadataUpdateMode` is `OVERWRITE` (default) or `PATCH` (RFC 7396). New data is re-embedded on
 * an embedding index unless a vector is given too; metadata is kept unless it is updated.
 */
export function update(ctx: VectorContext, namespace: string, body: unknown): { updated: number } {
  const req = requireObject(body, "the update payload");
  rejectSparse(req);
  const id = readId(req.id);
  const vector = present(req.vector) ? readVector(req.vector, ctx.config.dimension) : undefined;
  const data = readData(req.data);
  if (present(req.metadata) && !isObject(req.metadata)) throw badRequest("Invalid request body: metadata must be a JSON object");
  const metadata = isObject(req.metadata) ? req.metadata : undefined;
  if (metadata) checkMetadataDepth(metadata);
  const mode = (readString(req.metadataUpdateMode, "metadataUpdateMode") ?? "OVERWRITE").toUpperCase();
  if (mode !== "OVERWRITE" && mode !== "PATCH") {
    throw badRequest("Invalid request body: metadataUpdateMode must be OVERWRITE or PATCH");
  }
  if (vector === undefined && data === undefined && metadata === undefined) {
    throw badRequest("Invalid request body: at least one of vector, data or metadata must be provided");
  }
  const newVector = vector ?? (data !== undefined && ctx.config.embedding ? embed(ctx, data) : undefined);

  const ns = ctx.store.get(namespace);
  const record = ns?.get(id);
  if (!ns || !record) return { updated: 0 };
  let newMetadata: Json | undefined;
  if (metadata !== undefined) {
    const merged = mode === "PATCH" ? mergePatch(record.metadata ?? {}, metadata) : metadata;
    newMetadata = isObject(merged) ? merged : {};
    checkMetadataSize(Buffer.byteLength(JSON.stringify(newMetadata)));
  }
  if (newVector) ns.setVector(record, newVector);
  const changes: { metadata?: Json; data?: string } = {};
  if (newMetadata !== undefined) changes.metadata = newMetadata;
  if (data !== undefined) changes.data = data;
  ns.patch(record, changes);
  ctx.changed();
  return { updated: 1 };
}
