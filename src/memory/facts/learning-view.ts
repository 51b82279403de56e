/**
 * @module What one learning turn sees and must change: the facts its agent may see (the similar
 * ones, plus what the turns just before it wrote), and every current fact of a relation a new
 * statement sets.
 */
import { matchesFilter, type FactFilter } from "./filter.ts";
import type { LearnedStep } from "./learned-writes.ts";
import type { RelationKeys } from "../ports/llm.ts";
import type { Fact } from "../model.ts";

/** What a learning turn knows besides its messages. */
export interface LearnTurn {
  /** The turn's agent: it reads and supersedes its own facts and the shared ones. Absent: the shared facts only. */
  agentId?: string | undefined;
  /** Ids of facts the user's previous learning turns wrote, read by id (a similarity query may not show them yet). */
  recentlyWritten?: readonly string[] | undefined;
  /** Reads the single-valued relation of a text; without it only the facts the extractor names are superseded. */
  relationKeys?: RelationKeys | null | undefined;
}

/** Most facts recent turns wrote that are offered beside the similar ones. */
export const MAX_RECENT_OFFERED = 8;

/**
 * The facts a turn of `agentId` sees: that agent's and the shared ones; a turn of no agent sees
 * only the shared facts, never an agent's private ones.
 */
export const learningFilter = (agentId: string | undefined): FactFilter => ({ agentId: agentId ?? null });

/**
 * The facts offered to the extractor: the similar ones in their order, each replaced by its
 * by-id read when there is one (fresher than the index), then the recently written ones the
 * query did not find (newest first, at most {@link MAX_RECENT_OFFERED}); only current facts
 * within `filter`.
 */
export function offeredFacts(similar: readonly Fact[], readById: readonly (Fact | null)[], filter: FactFilter): Fact[] {
  const fresh = new Map(readById.flatMap((f) => (f ? [[f.id, f] as const] : [])));
  const visible = (f: Fact): boolean => f.supersededAt === undefined && matchesFilter(f, filter);
  const offered = similar.map((f) => fresh.get(f.id) ?? f).filter(visible);
  const seen = new Set(similar.map((f) => f.id));
  const extra = [...fresh.values()].filter((f) => !seen.has(f.id) && visible(f)).slice(0, MAX_RECENT_OFFERED);
  return [...offered, ...extra];
}

/**
 * Supersede steps for the current facts a turn's statements contradict that no step names: a
 * statement of a single-valued relation (home, job, ...) ends every other current fact of that
 * relation among `existing`, so parallel turns that left several current ones converge on one.
 */
export function relationSupersedes(
  steps: readonly LearnedStep[],
  existing: readonly Fact[],
  keys: RelationKeys | null | undefined,
): LearnedStep[] {
  if (!keys || steps.length === 0) return [];
  const named = new Set(steps.flatMap((s) => (s.op === "add" ? [] : [s.current.id])));
  const extra: LearnedStep[] = [];
  const keyOfExisting = new Map(existing.map((f) => [f.id, keys.keyOf(f.text)]));
  for (const step of steps) {
    if (step.op === "update") continue;
    const key = keys.keyOf(step.draft.text);
    if (key === null) continue;
    for (const fact of existing) {
      if (named.has(fact.id) || keyOfExisting.get(fact.id) !== key) continue;
      named.add(fact.id);
      extra.push({ op: "supersede", draft: step.draft, contentId: step.contentId, current: fact });
    }
  }
  return extra;
}
