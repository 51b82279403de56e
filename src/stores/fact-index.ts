/** @module The Upstash Vector client surface the fact store uses, the embed function type, and a missing namespace read as empty. */
import type { Index } from "@upstash/vector";

/** The part of the `@upstash/vector` client the fact store uses (Node and Cloudflare `Index` both fit). */
export type VectorIndex = Pick<
  Index,
  "upsert" | "query" | "queryMany" | "fetch" | "update" | "delete" | "range" | "listNamespaces" | "deleteNamespace"
>;

/** Computes embeddings in the Worker (e.g. OpenAI) instead of the index's own model. */
export type EmbedFunction = (texts: string[]) => Promise<number[][]>;

/** Upstash's documented upsert batch limit. */
export const UPSERT_BATCH = 1000;

/** Upstash answers 404 "Namespace ... does not exist" for a namespace never written (or deleted). */
export function isMissingNamespace(err: unknown): boolean {
  return err instanceof Error && /namespace/i.test(err.message) && /(not exist|not found)/i.test(err.message);
}

/** Runs `op`; a missing namespace means "no facts yet", so it yields `empty` instead of an error. */
export async function orEmpty<T>(op: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (isMissingNamespace(err)) return empty;
    throw err;
  }
}
