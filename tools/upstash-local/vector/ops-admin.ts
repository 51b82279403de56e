/** @module Vector admin endpoints: `/info`, `/list-namespaces` and `/delete-namespace`. */
import { DENSE_MODEL_NAMES, SPARSE_MODEL_NAME } from "./config.ts";
import type { VectorContext } from "./context.ts";
import { badRequest, notFound } from "./errors.ts";
import { sentenceModelState } from "./sentence-model.ts";
import type { Json } from "./validate.ts";

/**
 * `POST /info`. `pendingVectorCount` is always 0: writes are indexed synchronously. The index type
 * shows as `indexType` and as the `denseIndex` / `sparseIndex` blocks the client's `InfoResult`
 * reads; a sparse index has no dense block, and reports dimension 0 and the inner product
 * (`DOT_PRODUCT`) it scores with at the top level, whose fields the client types as required.
 */
export function info(ctx: VectorContext): Json {
  const { kind, dimension, similarity, embedding, denseModel } = ctx.config;
  const namespaces: Record<string, { vectorCount: number; pendingVectorCount: number }> = {};
  let vectorCount = 0;
  let indexSize = 0;
  for (const [name, ns] of ctx.store.entries()) {
    namespaces[name] = { vectorCount: ns.size, pendingVectorCount: 0 };
    vectorCount += ns.size;
    indexSize += ns.bytes();
  }
  const out: Json = {
    vectorCount,
    pendingVectorCount: 0,
    indexSize,
    dimension,
    similarityFunction: kind === "sparse" ? "DOT_PRODUCT" : similarity,
    indexType: kind.toUpperCase(),
  };
  if (kind !== "sparse") {
    const denseIndex: Json = { dimension, similarityFunction: similarity, embeddingModel: embedding ? DENSE_MODEL_NAMES[denseModel] : "" };
    // Not in Upstash's answer: whether the sentence model has loaded (idle | loading | ready | failed).
    if (embedding && denseModel === "USE_LITE") denseIndex.embeddingModelStatus = sentenceModelState().status;
    out.denseIndex = denseIndex;
  }
  if (kind !== "dense") out.sparseIndex = { embeddingModel: embedding ? SPARSE_MODEL_NAME : "" };
  out.namespaces = namespaces;
  return out;
}

/** `POST /list-namespaces`: names in creation order, the default `""` first. */
export function listNamespaces(ctx: VectorContext): string[] {
  return ctx.store.names();
}

/** `POST /delete-namespace/{ns}`: 404 for an unknown namespace; the default one cannot be deleted. */
export function deleteNamespace(ctx: VectorContext, namespace: string): string {
  if (namespace === "") throw badRequest("The default namespace cannot be deleted");
  if (!ctx.store.delete(namespace)) {
    throw notFound(`Namespace ${namespace} for the index ${ctx.indexName} does not exist`);
  }
  ctx.changed();
  return "Success";
}
