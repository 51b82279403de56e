import type { VectorIndexConfig } from "./config.ts";
import { embedText } from "./embedder.ts";
import { EMBEDDING_NOT_ALLOWED, unprocessable } from "./errors.ts";
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

/** Embeds text with the offline embedder, or answers 422 when the index has no embedding model. */
export function embed(ctx: VectorContext, text: string): Float64Array {
  if (!ctx.config.embedding) throw unprocessable(EMBEDDING_NOT_ALLOWED);
  return embedText(text, ctx.config.dimension);
}

/** Throws the 422 up front, before the request is validated further. */
export function requireEmbedding(ctx: VectorContext): void {
  if (!ctx.config.embedding) throw unprocessable(EMBEDDING_NOT_ALLOWED);
}
