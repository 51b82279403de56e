/**
 * @module What one learning turn writes: the extractor's operations resolved against the user's
 * facts into one set of fact writes and deletes, so a turn is applied whole or not at all.
 */
import {
  MAX_FACT_HISTORY,
  createFact,
  freshFactId,
  mergeFact,
  normalizeFactText,
  reinstated,
  supersededFact,
  type FactDraft,
} from "./identity.ts";
import type { ContentMatch } from "../ports/facts.ts";
import type { Fact } from "../model.ts";

/** One operation to apply: its draft, the content id of the draft's text, and the fact it changes. */
export type LearnedStep =
  | { op: "add"; draft: FactDraft; contentId: string }
  | { op: "update" | "supersede"; draft: FactDraft; contentId: string; current: Fact };

/** Facts to upsert and ids to delete, and per step what happened to it. */
export interface LearnedWrites {
  upserts: Fact[];
  deletes: string[];
  outcomes: (
    | { kind: "added"; id: string }
    | { kind: "updated"; id: string }
    | { kind: "superseded"; id: string; by: string }
    | { kind: "skipped" }
  )[];
}

/**
 * Resolves the steps in order, each seeing what the steps before it changed (two steps of one turn
 * may touch the same fact). `matches` answers a content id with what the store held before the turn.
 */
export function planLearnedWrites(steps: readonly LearnedStep[], matches: ReadonlyMap<string, ContentMatch>, now: number): LearnedWrites {
  const pending = new Map<string, Fact>();
  const deleted = new Set<string>();
  const latest = (fact: Fact): Fact => pending.get(fact.id) ?? fact;
  const write = (fact: Fact) => {
    pending.set(fact.id, fact);
    deleted.delete(fact.id);
  };
  // The fact holding a text: one written earlier in this turn wins over what the store held.
  const holderOf = (contentId: string): Fact | null => {
    for (const fact of pending.values()) if (fact.contentId === contentId) return fact;
    const holder = matches.get(contentId)?.holder ?? null;
    if (!holder || deleted.has(holder.id)) return null;
    // a step before this one may have given the holder another text
    const next = latest(holder);
    return next.contentId === undefined || next.contentId === contentId ? next : null;
  };
  const create = (draft: FactDraft, contentId: string) => {
    const taken = matches.get(contentId)?.idTaken === true || pending.has(contentId) || deleted.has(contentId);
    return createFact(taken ? freshFactId() : contentId, draft, now, contentId);
  };

  const outcomes: LearnedWrites["outcomes"] = steps.map((step) => {
    const holder = holderOf(step.contentId);
    if (step.op === "add") {
      const fact = holder ? reinstated(mergeFact(holder, step.draft, now)) : create(step.draft, step.contentId);
      write(fact);
      return { kind: "added", id: fact.id };
    }
    const current = latest(step.current);
    if (deleted.has(current.id)) return { kind: "skipped" };
    if (step.op === "supersede") {
      if (holder?.id === current.id || normalizeFactText(step.draft.text) === normalizeFactText(current.text)) return { kind: "skipped" };
      const fact = holder ? reinstated(mergeFact(holder, step.draft, now)) : create(step.draft, step.contentId);
      write(fact);
      write(supersededFact(current, fact.id, now));
      return { kind: "superseded", id: current.id, by: fact.id };
    }
    // An update keeps the fact's id; when another fact already says the new text, that one takes
    // the old fact's history and the old fact goes.
    const merged = mergeFact(current, step.draft, now);
    if (normalizeFactText(merged.text) === normalizeFactText(current.text)) {
      write(merged);
      return { kind: "updated", id: merged.id };
    }
    if (holder && holder.id !== current.id) {
      const refreshed = mergeFact(holder, step.draft, now);
      const history = [...(holder.history ?? []), ...(current.history ?? []), { text: current.text, updatedAt: current.updatedAt }];
      write({ ...refreshed, history: history.slice(-MAX_FACT_HISTORY) });
      pending.delete(current.id);
      deleted.add(current.id);
      return { kind: "updated", id: holder.id };
    }
    write({ ...merged, contentId: step.contentId });
    return { kind: "updated", id: merged.id };
  });
  return { upserts: [...pending.values()], deletes: [...deleted], outcomes };
}
