/** @module Vector request limits and readers for metadata, data and upsert batches, with Upstash-style errors. */
import { badRequest } from "./errors.ts";
import { isObject, present, requireObject, type Json } from "./validate.ts";

/** Limits enforced with Upstash-style errors (reference B6; topK and range limits are our choice). */
export const LIMITS = {
  /** Vectors per upsert / upsert-data request ("free tier: limit of 1000 vectors per batch"). */
  upsertBatch: 1000,
  /** Metadata per vector, as JSON bytes. */
  metadataBytes: 48 * 1024,
  /** Data per vector, as UTF-8 bytes. */
  dataBytes: 1024 * 1024,
  /** Largest topK (undocumented by Upstash; 1000 matches the other per-request limits). */
  topK: 1000,
  /** Largest range page (undocumented by Upstash). */
  rangeLimit: 1000,
  /** Records returned by a prefix fetch. */
  fetchPrefix: 1000,
  /** Nesting depth of metadata (our choice: keeps recursive JSON handling far from stack limits). */
  metadataDepth: 100,
} as const;

/** Metadata object and its JSON size, or undefined when absent. */
export function readMetadata(v: unknown): { value: Json; bytes: number } | undefined {
  if (!present(v)) return undefined;
  if (!isObject(v)) throw badRequest("Invalid request body: metadata must be a JSON object");
  checkMetadataDepth(v);
  const bytes = Buffer.byteLength(JSON.stringify(v));
  checkMetadataSize(bytes);
  return { value: v, bytes };
}

/** Measures nesting without recursion, so hostile input cannot overflow the stack here. */
export function checkMetadataDepth(root: unknown): void {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() ?? [null, 0];
    if (typeof value !== "object" || value === null) continue;
    if (depth > LIMITS.metadataDepth) {
      throw badRequest(`Metadata is nested too deeply (more than ${LIMITS.metadataDepth} levels)`);
    }
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
}

export function checkMetadataSize(bytes: number): void {
  if (bytes > LIMITS.metadataBytes) {
    throw badRequest(`Metadata size ${bytes} bytes exceeds the limit of ${LIMITS.metadataBytes} bytes`);
  }
}

export function readData(v: unknown): string | undefined {
  if (!present(v)) return undefined;
  if (typeof v !== "string") throw badRequest("Invalid request body: data must be a string");
  const bytes = Buffer.byteLength(v);
  if (bytes > LIMITS.dataBytes) throw badRequest(`Data size ${bytes} bytes exceeds the limit of ${LIMITS.dataBytes} bytes`);
  return v;
}

/** The upsert payload as a list; a single object is a batch of one. */
export function readBatch(body: unknown): Json[] {
  const items = Array.isArray(body) ? (body as unknown[]) : [body];
  if (items.length > LIMITS.upsertBatch) {
    throw badRequest(`Upsert batch size ${items.length} exceeds the limit of ${LIMITS.upsertBatch} vectors`);
  }
  return items.map((item, i) => requireObject(item, Array.isArray(body) ? `item ${i}` : "the upsert payload"));
}
