/** @module Defaults the REST routes and the MCP tools share for what a request leaves out: a new fact's type and importance, a recall's size. */
import type { FactType } from "../memory/model.ts";
import type { TenantMemory } from "../memory/tenant-memory.ts";

/** A new fact's type and importance when the request gives none: a plain `fact` of middling importance. */
export function factDefaults(given: { type?: FactType | undefined; importance?: number | undefined }): {
  type: FactType;
  importance: number;
} {
  return { type: given.type ?? "fact", importance: given.importance ?? 0.5 };
}

/** How many facts a recall answers when the request names no `k`: the tenant's `RECALL_K`. */
export const recallSize = (memory: TenantMemory, k: number | undefined): number => k ?? memory.options.recallK;
