import { embed, requireEmbedding, type VectorContext } from "./context.ts";
import { badRequest } from "./errors.ts";
import { readBatch, readData, readMetadata } from "./limits.ts";
import type { RecordInput } from "./store.ts";
import { present, readId, readVector, rejectSparse } from "./validate.ts";

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
