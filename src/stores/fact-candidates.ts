/** Vector query results as recall candidates: each part's score, and each fact once with its best. */
import type { QueryResult } from "@upstash/vector";
import type { RecallCandidate } from "../memory/model.ts";
import { factFromMetadata } from "./fact-metadata.ts";

/** Query results as candidates; `part` names which score the index's score is. */
export function candidatesOf(results: readonly QueryResult[], part: "dense" | "sparse" | null): RecallCandidate[] {
  return results.flatMap((r) => {
    const fact = factFromMetadata(r.id, r.metadata);
    if (!fact) return [];
    const candidate: RecallCandidate = { fact, similarity: r.score };
    if (part) candidate[part] = r.score;
    return [candidate];
  });
}

/** Each fact once, with its best score over the wordings of a query (per part for a hybrid index). */
export function bestOf(lists: readonly RecallCandidate[][]): RecallCandidate[] {
  const merged = new Map<string, RecallCandidate>();
  for (const list of lists) {
    for (const c of list) {
      const found = merged.get(c.fact.id);
      if (!found) {
        merged.set(c.fact.id, { ...c });
        continue;
      }
      found.similarity = Math.max(found.similarity, c.similarity);
      if (c.dense !== undefined) found.dense = Math.max(found.dense ?? c.dense, c.dense);
      if (c.sparse !== undefined) found.sparse = Math.max(found.sparse ?? c.sparse, c.sparse);
    }
  }
  return [...merged.values()];
}

/** A hybrid index's dense and sparse candidates as one list; a fact only one part found has no score for the other. */
export function mergeParts(dense: readonly RecallCandidate[], sparse: readonly RecallCandidate[]): RecallCandidate[] {
  const merged = new Map<string, RecallCandidate>();
  for (const c of dense) merged.set(c.fact.id, c);
  for (const c of sparse) {
    const found = merged.get(c.fact.id);
    if (found) found.sparse = c.sparse;
    else merged.set(c.fact.id, { ...c, similarity: 0 });
  }
  return [...merged.values()];
}
