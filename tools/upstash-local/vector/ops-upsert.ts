/** @module Vector upsert endpoints: `/upsert` with vectors and `/upsert-data` with text the server embeds. */
import { embedRecords, requireEmbedding, type VectorContext } from "./context.ts";
import { badRequest } from "./errors.ts";
import { readBatch, readData, readMetadata } from "./limits.ts";
import { readRecordParts, rejectForeignParts, rejectVectors } from "./parts.ts";
import type { RecordInput } from "./store.ts";
import { readId } from "./validate.ts";

/** `POST /upsert/{ns}`: one record or an array; every item needs the parts of the index kind. */
export function upsert(ctx: VectorContext, namespace: string, body: unknown): string {
  // Validate the whole batch before writing anything, so a bad item leaves the index unchanged.
  const records = readBatch(body).map((item): [string, RecordInput] => {
    rejectForeignParts(ctx, item);
    const id = readId(item.id);
    const parts = readRecordParts(ctx, item, id);
    const metadata = readMetadata(item.metadata);
    return [id, { ...parts, metadata: metadata?.value, metadataBytes: metadata?.bytes, data: readData(item.data) }];
  });
  const ns = ctx.store.ensure(namespace);
  for (const [id, record] of records) ns.upsert(id, record);
  ctx.changed();
  return "Success";
}

/** `POST /upsert-data/{ns}`: the server embeds `data` (dense model and/or BM25) and stores it as data. */
export async function upsertData(ctx: VectorContext, namespace: string, body: unknown): Promise<string> {
  requireEmbedding(ctx);
  const items = readBatch(body).map((item) => {
    rejectForeignParts(ctx, item);
    const id = readId(item.id);
    rejectVectors(item, "/upsert-data", id);
    const data = readData(item.data);
    if (data === undefined) throw badRequest(`Invalid request body: data is required for id "${id}"`);
    const metadata = readMetadata(item.metadata);
    return { id, metadata, data };
  });
  // Every item is valid before the batch is embedded (one model batch) and written.
  const parts = await embedRecords(
    ctx,
    items.map((item) => item.data),
  );
  const records = items.map(({ id, metadata, data }, i): [string, RecordInput] => [
    id,
    { ...parts[i], metadata: metadata?.value, metadataBytes: metadata?.bytes, data },
  ]);
  const ns = ctx.store.ensure(namespace);
  for (const [id, record] of records) ns.upsert(id, record);
  ctx.changed();
  return "Success";
}
