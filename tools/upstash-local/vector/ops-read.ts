/** @module Vector read endpoints: `/fetch` by ids or prefix and `/range` paging. */
import type { VectorContext } from "./context.ts";
import { badRequest } from "./errors.ts";
import { renderRecord } from "./render.ts";
import type { StoredRecord } from "./store.ts";
import { LIMITS } from "./limits.ts";
import { present, readCount, readIds, readIncludes, readString, requireObject, type Json } from "./validate.ts";

/**
 * `POST /fetch/{ns}` with `ids` (answered in order, `null` for a missing id) or `prefix` (at most
 * 1000 records, in insertion order).
 */
export function fetchRecords(ctx: VectorContext, namespace: string, body: unknown): (Json | null)[] {
  const req: Json = Array.isArray(body) ? { ids: body } : requireObject(body, "the fetch payload");
  const includes = readIncludes(req);
  const prefix = readString(req.prefix, "prefix");
  if (present(req.ids) && prefix !== undefined) throw badRequest("Only one of ids or prefix must be provided.");
  if (!present(req.ids) && prefix === undefined) throw badRequest("Invalid request body: one of ids or prefix must be provided");
  const ns = ctx.store.get(namespace);
  if (prefix !== undefined) {
    const out: Json[] = [];
    if (!ns) return out;
    for (const r of ns.records()) {
      if (out.length >= LIMITS.fetchPrefix) break;
      if (r.id.startsWith(prefix)) out.push(renderRecord(ctx, ns, r, includes));
    }
    return out;
  }
  return readIds(req.ids).map((id) => {
    const r = ns?.get(id);
    return ns && r ? renderRecord(ctx, ns, r, includes) : null;
  });
}

/** Reads a range cursor: `0`, `"0"` and `""` start at the beginning; otherwise a sequence number. */
function readCursor(v: unknown): number {
  if (!present(v) || v === "") return 0;
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === "string" && /^\d{1,15}$/.test(v)) return Number(v);
  throw badRequest("Invalid request body: cursor must be a cursor returned by a previous range call");
}

/**
 * `POST /range/{ns}`: a page of records in insertion order. `nextCursor` is opaque (the sequence
 * number of the next record) and `""` as soon as no records remain: the server looks ahead one.
 */
export function range(ctx: VectorContext, namespace: string, body: unknown): { nextCursor: string; vectors: Json[] } {
  const req = requireObject(body, "the range payload");
  const start = readCursor(req.cursor);
  const limit = readCount(req.limit, "limit", -1, LIMITS.rangeLimit);
  if (limit < 1) throw badRequest("Invalid request body: limit must be a positive integer");
  const prefix = readString(req.prefix, "prefix") ?? "";
  const includes = readIncludes(req);
  const ns = ctx.store.get(namespace);
  const page: StoredRecord[] = [];
  let next = "";
  if (ns) {
    for (const r of ns.records()) {
      if (r.seq < start || !r.id.startsWith(prefix)) continue;
      if (page.length === limit) {
        next = String(r.seq);
        break;
      }
      page.push(r);
    }
  }
  return { nextCursor: next, vectors: ns ? page.map((r) => renderRecord(ctx, ns, r, includes)) : [] };
}
