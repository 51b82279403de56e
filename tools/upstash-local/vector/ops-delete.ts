/** @module Vector delete endpoints: `/delete` by ids, prefix or filter, and `/reset`. */
import type { VectorContext } from "./context.ts";
import { badRequest } from "./errors.ts";
import { filterFromRequest } from "./filter/index.ts";
import { present, readIds, readString, requireObject, type Json } from "./validate.ts";

const ONE_CRITERION = "Only and only one of the ids, prefix, or filter must be provided.";

/** `POST /delete/{ns}` with exactly one of `ids`, `prefix` or `filter` (a bare id array is read as ids). */
export function remove(ctx: VectorContext, namespace: string, body: unknown): { deleted: number } {
  const req: Json = Array.isArray(body) ? { ids: body } : requireObject(body, "the delete payload");
  const hasIds = present(req.ids);
  const prefix = readString(req.prefix, "prefix");
  const filter = readString(req.filter, "filter");
  // An empty prefix or filter would match everything; it counts as not given rather than wiping the namespace.
  const given = [hasIds, prefix !== undefined && prefix !== "", filter !== undefined && filter.trim() !== ""].filter(Boolean).length;
  if (given !== 1) throw badRequest(ONE_CRITERION);
  const ids = hasIds ? readIds(req.ids) : undefined;
  const predicate = filterFromRequest(filter);

  const ns = ctx.store.get(namespace);
  if (!ns) return { deleted: 0 };
  let deleted = 0;
  if (ids) {
    for (const id of ids) if (ns.delete(id)) deleted += 1;
  } else {
    const doomed = [...ns.records()]
      .filter((r) => (predicate ? predicate(r.metadata) : prefix !== undefined && r.id.startsWith(prefix)))
      .map((r) => r.id);
    for (const id of doomed) if (ns.delete(id)) deleted += 1;
  }
  if (deleted > 0) ctx.changed();
  return { deleted };
}

/** `POST /reset/{ns}` or `/reset?all`: empties namespaces but keeps them listed. */
export function reset(ctx: VectorContext, namespace: string, all: boolean): string {
  if (all) for (const [, ns] of ctx.store.entries()) ns.clear();
  else ctx.store.get(namespace)?.clear();
  ctx.changed();
  return "Success";
}
