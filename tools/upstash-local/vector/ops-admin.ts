import { EMBEDDING_MODEL_NAME } from "./config.ts";
import type { VectorContext } from "./context.ts";
import { badRequest, notFound } from "./errors.ts";
import type { Json } from "./validate.ts";

/** `POST /info`. `pendingVectorCount` is always 0: writes are indexed synchronously. */
export function info(ctx: VectorContext): Json {
  const { dimension, similarity, embedding } = ctx.config;
  const namespaces: Record<string, { vectorCount: number; pendingVectorCount: number }> = {};
  let vectorCount = 0;
  let indexSize = 0;
  for (const [name, ns] of ctx.store.entries()) {
    namespaces[name] = { vectorCount: ns.size, pendingVectorCount: 0 };
    vectorCount += ns.size;
    indexSize += ns.bytes();
  }
  return {
    vectorCount,
    pendingVectorCount: 0,
    indexSize,
    dimension,
    similarityFunction: similarity,
    indexType: "DENSE",
    denseIndex: { dimension, similarityFunction: similarity, embeddingModel: embedding ? EMBEDDING_MODEL_NAME : "" },
    namespaces,
  };
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
