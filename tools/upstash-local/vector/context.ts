/** @module Vector emulator context shared by every endpoint, and embedding of stored texts and query text. */
import { bm25Document, bm25Query } from "./bm25.ts";
import { hasDense, hasSparse, type VectorIndexConfig } from "./config.ts";
import { embedDense } from "./dense-model.ts";
import { EMBEDDING_NOT_ALLOWED, unprocessable } from "./errors.ts";
import type { SparseVector } from "./sparse-vector.ts";
import type { VectorStore } from "./store.ts";

/** What every endpoint needs: the index settings, the data, and a way to signal a mutation. */
export interface VectorContext {
  readonly config: VectorIndexConfig;
  readonly store: VectorStore;
  /** Name used in error messages such as `Namespace ns for the index <name> does not exist`. */
  readonly indexName: string;
  /** Called after every mutation (schedules a persistence write when a dataDir is set). */
  changed(): void;
}

/** The parts of a record or a query, as the index kind has them. */
export interface Parts {
  vector?: ArrayLike<number> | undefined;
  sparse?: SparseVector | undefined;
}

/** Throws the 422 up front, before the request is validated further. */
export function requireEmbedding(ctx: VectorContext): void {
  if (!ctx.config.embedding) throw unprocessable(EMBEDDING_NOT_ALLOWED);
}

/** Embeds texts with the index's dense model (one batch), or answers 422 when the index has no embedding model. */
export function embed(ctx: VectorContext, texts: readonly string[]): Promise<Float64Array[]> {
  requireEmbedding(ctx);
  return embedDense(ctx.config.denseModel, texts, ctx.config.dimension);
}

/** The parts of stored texts, as the index kind needs them (dense model and/or BM25 document); one model batch. */
export async function embedRecords(ctx: VectorContext, texts: readonly string[]): Promise<Parts[]> {
  requireEmbedding(ctx);
  const vectors = hasDense(ctx.config) ? await embed(ctx, texts) : undefined;
  return texts.map((text, i) => ({
    vector: vectors?.[i],
    sparse: hasSparse(ctx.config) ? bm25Document(text, ctx.config.bm25) : undefined,
  }));
}

/** The parts of a query text: the dense query vector and/or the BM25 query (term presence). */
export async function embedQuery(ctx: VectorContext, text: string, use: { dense: boolean; sparse: boolean }): Promise<Parts> {
  requireEmbedding(ctx);
  const [vector] = use.dense && hasDense(ctx.config) ? await embed(ctx, [text]) : [undefined];
  return {
    vector,
    sparse: use.sparse && hasSparse(ctx.config) ? bm25Query(text, ctx.config.bm25) : undefined,
  };
}
