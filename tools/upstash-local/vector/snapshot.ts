/** @module On-disk format of the Vector emulator (`vector.json`) and its vector encoding. */
import type { DenseModel, VectorIndexKind } from "./config.ts";
import type { SparseVector } from "./sparse-vector.ts";
import type { VectorStore } from "./store.ts";

/**
 * On-disk format of `${dataDir}/vector.json`. Dense vectors are base64 of little-endian float64
 * values: exact, about half the size of decimal text, and much faster to write for large indexes.
 * Sparse vectors are plain JSON arrays (JSON numbers round-trip float64 exactly). Ids, metadata and
 * data stay readable. Namespaces are kept even when empty.
 *
 * Version 2 adds `kind` and `sparseVector`; version 1 files (dense only, no `kind`) still load.
 * `denseModel` (optional) names the model that embedded the data, so a change of model re-embeds.
 */
export interface PersistedFile {
  format: "upstash-local-vector";
  version: 2;
  kind: VectorIndexKind;
  dimension: number;
  denseModel?: DenseModel;
  namespaces: { name: string; records: PersistedRecord[] }[];
}

export interface PersistedRecord {
  id: string;
  vector?: string;
  sparseVector?: SparseVector;
  metadata?: Record<string, unknown>;
  data?: string;
}

export const SNAPSHOT_VERSION = 2;

export const encodeVector = (v: number[]): string => Buffer.from(Float64Array.from(v).buffer).toString("base64");

export function decodeVector(text: string, dimension: number): Float64Array {
  const bytes = Buffer.from(text, "base64");
  if (bytes.length !== dimension * 8) throw new Error(`a stored vector has ${bytes.length / 8} values, expected ${dimension}`);
  const out = new Float64Array(dimension);
  for (let i = 0; i < dimension; i += 1) out[i] = bytes.readDoubleLE(i * 8);
  return out;
}

export function snapshot(store: VectorStore, kind: VectorIndexKind, denseModel?: DenseModel): PersistedFile {
  const namespaces = [...store.entries()].map(([name, ns]) => ({
    name,
    records: [...ns.records()].map((r) => {
      const rec: PersistedRecord = { id: r.id };
      if (kind !== "sparse") rec.vector = encodeVector(ns.vector(r));
      if (r.sparse) rec.sparseVector = r.sparse;
      if (r.metadata !== undefined) rec.metadata = r.metadata;
      if (r.data !== undefined) rec.data = r.data;
      return rec;
    }),
  }));
  const model = denseModel !== undefined && kind !== "sparse" ? { denseModel } : {};
  return { format: "upstash-local-vector", version: SNAPSHOT_VERSION, kind, dimension: store.dimension, ...model, namespaces };
}
