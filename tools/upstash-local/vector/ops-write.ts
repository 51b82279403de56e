import { embed, requireEmbedding, type VectorContext } from "./context.ts";
import { badRequest } from "./errors.ts";
import { filterFromRequest } from "./filter/index.ts";
import { mergePatch } from "./merge-patch.ts";
import type { RecordInput } from "./store.ts";
import {
  checkMetadataSize, isObject, present, readBatch, readData, readId, readIds, readMetadata, readString,
  readVector, rejectSparse, requireObject, type Json,
} from "./validate.ts";

/** `POST /upsert/{ns}`: one record or an array; every item needs a dense `vector`. */
export function upsert(ctx: VectorContext, namespace: string, body: unknown): string {
  // Validate the whole batch before writing anything, so a bad item leaves the index unchanged.
  const records = readBatch(body).map((item): [string, RecordInput] => {
    rejectSparse(item);
    const id = readId(item.id);
    if (!present(item.vector)) {
      throw badRequest(`Invalid request body: vector is required for id "${id}" (use /upsert-data to embed data)`);
    }
    const metadata = readMetadata(item.metadata);
    return [
      id,
      { vector: readVector(item.vector, ctx.config.dimension), metadata: metadata?.value, metadataBytes: metadata?.bytes, data: readData(item.data) },
    ];
  });
  const ns = ctx.store.ensure(namespace);
  for (const [id, record] of records) ns.upsert(id, record);
  ctx.changed();
  return "Success";
}

/** `POST /upsert-data/{ns}`: the server embeds `data` and stores it as the record's data. */
export function upsertData(ctx: VectorContext, namespace: string, body: unknown): string {
  requireEmbedding(ctx);
  const records = readBatch(body).map((item): [string, RecordInput] => {
    rejectSparse(item);
    const id = readId(item.id);
    if (present(item.vector)) throw badRequest(`Invalid request body: /upsert-data takes data, not vector (id "${id}")`);
    const data = readData(item.data);
    if (data === undefined) throw badRequest(`Invalid request body: data is required for id "${id}"`);
    const metadata = readMetadata(item.metadata);
    return [id, { vector: embed(ctx, data), metadata: metadata?.value, metadataBytes: metadata?.bytes, data }];
  });
  const ns = ctx.store.ensure(namespace);
  for (const [id, record] of records) ns.upsert(id, record);
  ctx.changed();
  return "Success";
}

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

const ONE_CRITERION = "Only and only one of the ids, prefix, or filter must be provided.";

/** `POST /delete/{ns}` with exactly one of `ids`, `prefix` or `filter` (a bare id array is read as ids). */
export function remove(ctx: VectorContext, namespace: string, body: unknown): { deleted: number } {
  const req: Json = Array.isArray(body) ? { ids: body } : requireObject(body, "the delete payload");
  const hasIds = present(req.ids);
  const prefix = readString(req.prefix, "prefix");
  const filter = readString(req.filter, "filter");
  // An empty prefix or filter would match everything; it counts as not given rather than wiping the namespace.
  const given = [hasIds, prefix !== undefined && prefix !== "", filter !== undefined && filter.trim() !== ""].filter(Boolean).length;
  if (given !== 1) throw badRequest(ONE_CRITERION);
  const ids = hasIds ? readIds(req.ids) : undefined;
  const predicate = filterFromRequest(filter);

  const ns = ctx.store.get(namespace);
  if (!ns) return { deleted: 0 };
  let deleted = 0;
  if (ids) {
    for (const id of ids) if (ns.delete(id)) deleted += 1;
  } else {
    const doomed = [...ns.records()]
      .filter((r) => (predicate ? predicate(r.metadata) : prefix !== undefined && r.id.startsWith(prefix)))
      .map((r) => r.id);
    for (const id of doomed) if (ns.delete(id)) deleted += 1;
  }
  if (deleted > 0) ctx.changed();
  return { deleted };
}

/** `POST /reset/{ns}` or `/reset?all`: empties namespaces but keeps them listed. */
export function reset(ctx: VectorContext, namespace: string, all: boolean): string {
  if (all) for (const [, ns] of ctx.store.entries()) ns.clear();
  else ctx.store.get(namespace)?.clear();
  ctx.changed();
  return "Success";
}
