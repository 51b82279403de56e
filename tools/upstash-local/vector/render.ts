import type { NamespaceStore, ScoredRecord, StoredRecord } from "./store.ts";
import type { Includes, Json } from "./validate.ts";

/**
 * A record as the client sees it. Fields that were not requested, or that the record does not
 * have, are omitted rather than sent as null (the official tests compare with `toEqual`).
 */
export function renderRecord(ns: NamespaceStore, record: StoredRecord, inc: Includes, score?: number): Json {
  const out: Json = { id: record.id };
  if (score !== undefined) out.score = score;
  if (inc.vectors) out.vector = ns.vector(record);
  if (inc.metadata && record.metadata !== undefined) out.metadata = record.metadata;
  if (inc.data && record.data !== undefined) out.data = record.data;
  return out;
}

export function renderScored(ns: NamespaceStore, hits: ScoredRecord[], inc: Includes): Json[] {
  return hits.map((h) => renderRecord(ns, h.record, inc, h.score));
}
