/** @module One Vector namespace: records, a dense vector matrix and sparse postings, searched by brute force. */
import type { SimilarityFunction } from "./config.ts";
import { makeScorer, squaredNormAt } from "./scoring.ts";
import { SparsePostings } from "./sparse-postings.ts";
import { sparseBytes, type SparseVector } from "./sparse-vector.ts";
import { TopK } from "./topk.ts";

/**
 * One record. Its dense vector (if the index has a dense part) lives in the namespace's matrix, at
 * row `slot`; its sparse vector (if the index has a sparse part) is kept here and posted in the
 * namespace's inverted index.
 */
export interface StoredRecord {
  readonly id: string;
  /** Insertion sequence number: orders `range` pages and serves as the range cursor. */
  readonly seq: number;
  readonly slot: number;
  metadata: Record<string, unknown> | undefined;
  data: string | undefined;
  sparse: SparseVector | undefined;
  /** Approximate stored size in bytes (vectors as float32 + id + metadata JSON + data), for `info`. */
  bytes: number;
}

export interface ScoredRecord {
  record: StoredRecord;
  score: number;
}

export interface RecordInput {
  /** Dense part; required when the namespace has a dimension. */
  vector?: ArrayLike<number> | undefined;
  sparse?: SparseVector | undefined;
  metadata?: Record<string, unknown> | undefined;
  data?: string | undefined;
  /** Size of the metadata as JSON, if the caller already measured it. */
  metadataBytes?: number | undefined;
}

/**
 * The records of one namespace. Vectors are rows of one growable Float64Array (float64 so values
 * round-trip exactly) with precomputed squared norms, which keeps brute-force search fast.
 * Records iterate in first-insertion order; re-upserting an id keeps its position.
 */
export class NamespaceStore {
  readonly #dim: number;
  #matrix: Float64Array;
  #norms: Float64Array;
  readonly #slots: (StoredRecord | undefined)[] = [];
  readonly #free: number[] = [];
  readonly #byId = new Map<string, StoredRecord>();
  readonly #postings = new SparsePostings<StoredRecord>();
  #nextSeq = 0;

  constructor(dimension: number) {
    this.#dim = dimension;
    this.#matrix = new Float64Array(dimension * 16);
    this.#norms = new Float64Array(16);
  }

  get size(): number {
    return this.#byId.size;
  }

  /** The inverted index of the sparse parts. */
  get postings(): SparsePostings<StoredRecord> {
    return this.#postings;
  }

  get(id: string): StoredRecord | undefined {
    return this.#byId.get(id);
  }

  /** All records, in insertion order. */
  records(): IterableIterator<StoredRecord> {
    return this.#byId.values();
  }

  upsert(id: string, input: RecordInput): void {
    const existing = this.#byId.get(id);
    const slot = existing ? existing.slot : this.#allocate();
    const record: StoredRecord = {
      id,
      seq: existing ? existing.seq : this.#nextSeq++,
      slot,
      metadata: input.metadata,
      data: input.data,
      sparse: undefined,
      bytes: 0,
    };
    if (existing?.sparse) this.#postings.remove(existing, existing.sparse);
    this.#slots[slot] = record;
    this.#byId.set(id, record);
    if (input.vector) this.setVector(record, input.vector);
    if (input.sparse) this.setSparse(record, input.sparse);
    this.#measure(record, input.metadataBytes);
  }

  /** Replaces metadata and/or data of an existing record (undefined = leave as is). */
  patch(record: StoredRecord, changes: { metadata?: Record<string, unknown>; data?: string }): void {
    if (changes.metadata !== undefined) record.metadata = changes.metadata;
    if (changes.data !== undefined) record.data = changes.data;
    this.#measure(record, undefined);
  }

  setVector(record: StoredRecord, vector: ArrayLike<number>): void {
    const offset = record.slot * this.#dim;
    for (let i = 0; i < this.#dim; i += 1) this.#matrix[offset + i] = vector[i] ?? 0;
    this.#norms[record.slot] = squaredNormAt(this.#matrix, offset, this.#dim);
  }

  setSparse(record: StoredRecord, sparse: SparseVector): void {
    if (record.sparse) this.#postings.remove(record, record.sparse);
    record.sparse = sparse;
    this.#postings.add(record, sparse);
    this.#measure(record, undefined);
  }

  /** The record's vector as a plain array (exact float64 values). */
  vector(record: StoredRecord): number[] {
    const offset = record.slot * this.#dim;
    return Array.from(this.#matrix.subarray(offset, offset + this.#dim));
  }

  delete(id: string): boolean {
    const record = this.#byId.get(id);
    if (!record) return false;
    this.#byId.delete(id);
    if (record.sparse) this.#postings.remove(record, record.sparse);
    this.#slots[record.slot] = undefined;
    this.#free.push(record.slot);
    return true;
  }

  clear(): void {
    this.#byId.clear();
    this.#slots.length = 0;
    this.#free.length = 0;
    this.#postings.clear();
    this.#matrix = new Float64Array(this.#dim * 16);
    this.#norms = new Float64Array(16);
  }

  /** Approximate size in bytes of all records. */
  bytes(): number {
    let total = 0;
    for (const r of this.#byId.values()) total += r.bytes;
    return total;
  }

  /**
   * Brute-force nearest neighbours: the best `limit` records passing `accept`, best first
   * (ties: earlier insertion first). `limit` may be Infinity for a full ranking.
   */
  search(query: Float64Array, similarity: SimilarityFunction, limit: number, accept?: (record: StoredRecord) => boolean): ScoredRecord[] {
    const score = makeScorer(similarity, query);
    const top = new TopK<StoredRecord>(limit);
    const matrix = this.#matrix;
    const norms = this.#norms;
    for (let slot = 0; slot < this.#slots.length; slot += 1) {
      const record = this.#slots[slot];
      if (!record || (accept && !accept(record))) continue;
      top.offer(score(matrix, slot * this.#dim, norms[slot] ?? 0), record.seq, record);
    }
    return top.sorted().map(({ score: s, item }) => ({ record: item, score: s }));
  }

  #allocate(): number {
    const reused = this.#free.pop();
    if (reused !== undefined) return reused;
    const slot = this.#slots.length;
    this.#slots.push(undefined);
    if (slot >= this.#norms.length) {
      const capacity = this.#norms.length * 2;
      const matrix = new Float64Array(capacity * this.#dim);
      matrix.set(this.#matrix);
      const norms = new Float64Array(capacity);
      norms.set(this.#norms);
      this.#matrix = matrix;
      this.#norms = norms;
    }
    return slot;
  }

  #measure(record: StoredRecord, metadataBytes: number | undefined): void {
    const meta = record.metadata === undefined ? 0 : (metadataBytes ?? Buffer.byteLength(JSON.stringify(record.metadata)));
    const data = record.data === undefined ? 0 : Buffer.byteLength(record.data);
    record.bytes = this.#dim * 4 + sparseBytes(record.sparse) + Buffer.byteLength(record.id) + meta + data;
  }
}
