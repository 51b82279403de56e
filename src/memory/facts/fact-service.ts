/** @module FactService: writing, editing, importing, recalling and learning one user's long-term facts. */
import { MemoryError } from "../errors.ts";
import { isEmptyFilter, matchesFilter, type FactFilter, type FactListOptions } from "./filter.ts";
import { checkFactText } from "./fact-text.ts";
import { createFact, factId, freshFactId, mergeFact, normalizeFactText, reinstated, type FactDraft } from "./identity.ts";
import { planLearnedWrites, type LearnedStep } from "./learned-writes.ts";
import type { MemoryOptions } from "../options.ts";
import { recallFrom, type RecallOutcome } from "./recall.ts";
import { repairAfterDelete } from "./supersession.ts";
import { isFiller } from "./salience.ts";
import type { FactExtractor } from "../ports/llm.ts";
import type { FactPage, FactScope, FactStore } from "../ports/facts.ts";
import type { Fact, FactType, RecalledFact, StoredMessage } from "../model.ts";

export interface FactServiceDeps {
  facts: FactStore;
  scope: FactScope;
  options: MemoryOptions;
  /** Clock in ms. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Told after a fact was changed or deleted by a client (the audit log). */
  audited?: ((action: "fact.update" | "fact.delete", factId: string) => void) | undefined;
}

/** Changes a client may make to a stored fact. */
export interface FactChanges {
  text?: string | undefined;
  type?: FactType | undefined;
  importance?: number | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** How many of the user's most similar current facts learning offers the extractor. */
export const LEARN_SIMILAR = 8;

/** What a recall asks for besides its query. */
export interface FactRecallOptions {
  k: number;
  types?: FactType[] | undefined;
  minScore?: number | undefined;
  /** Agent, time and metadata; applied by the vector store's query (see {@link FactFilter}). */
  filter?: FactFilter | undefined;
}

/** Most facts one import may carry (one Vector upsert). */
export const MAX_IMPORT = 100;

export interface LearnReport {
  added: string[];
  updated: string[];
  /** Facts that stopped being true (marked superseded; their replacements are in `added`). */
  superseded: string[];
  skipped: number;
}

/** Writing and reading one user's long-term facts with the domain's identity and merge rules. */
export class FactService {
  readonly #d: FactServiceDeps;
  readonly #now: () => number;

  constructor(deps: FactServiceDeps) {
    this.#d = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** One fact; `not_found` when the user has no such fact. */
  async get(id: string): Promise<Fact> {
    const [fact] = await this.#d.facts.get(this.#d.scope, [id]);
    if (!fact) throw new MemoryError("not_found", `no fact ${id}`);
    return fact;
  }

  /**
   * A page of the user's facts in storage order, optionally of some types only, within a filter,
   * and only the current ones (`current`: no `supersededAt`). The page is read first and filtered
   * after, so a filtered page may hold fewer than `limit` facts (even none) while `nextCursor`
   * still leads on.
   */
  async list(
    cursor: string,
    limit: number,
    types?: readonly FactType[],
    filter?: FactFilter,
    options: FactListOptions = {},
  ): Promise<FactPage> {
    const page = await this.#d.facts.list(this.#d.scope, cursor, limit);
    const keep = (f: Fact): boolean =>
      (!types || types.length === 0 || types.includes(f.type)) &&
      (!options.current || f.supersededAt === undefined) &&
      (isEmptyFilter(filter) || matchesFilter(f, filter));
    return { ...page, facts: page.facts.filter(keep) };
  }

  /**
   * Deletes one fact; `not_found` when there was none. The facts it had superseded are repaired
   * first (see {@link repairAfterDelete}): the newest becomes current again and is returned as
   * `restored`. Repairing before deleting means a failure between leaves the fact to delete in
   * place, and a retry finishes the job; never a `supersededBy` naming a fact that is gone.
   */
  async delete(id: string): Promise<{ restored: string | null }> {
    const { facts, scope } = this.#d;
    const [fact] = await facts.get(scope, [id]);
    if (!fact) throw new MemoryError("not_found", `no fact ${id}`);
    const repair = repairAfterDelete(fact, await facts.supersededBy(scope, fact));
    if (repair.updates.length > 0) await facts.patch(scope, repair.updates);
    const deleted = await facts.delete(scope, [id]);
    if (deleted === 0) throw new MemoryError("not_found", `no fact ${id}`);
    this.#d.audited?.("fact.delete", id);
    return { restored: repair.restored };
  }

  /** Same text, same fact: a second write refreshes the fact holding that text (edited or not). */
  async remember(draft: FactDraft): Promise<{ fact: Fact; created: boolean }> {
    const { facts, scope } = this.#d;
    checkFactText(draft.text);
    const contentId = await factId(scope, draft.text, draft.agentId);
    const [match] = await facts.findByContent(scope, [{ contentId, text: draft.text }]);
    const now = this.#now();
    const holder = match?.holder ?? null;
    const fact = holder
      ? reinstated(mergeFact(holder, draft, now))
      : createFact(match?.idTaken ? freshFactId() : contentId, draft, now, contentId);
    await facts.upsert(scope, [fact]);
    return { fact, created: !holder };
  }

  /**
   * Stores up to {@link MAX_IMPORT} facts in one Vector upsert, with the same identity and merge
   * rules as {@link remember}: one content lookup for all, restatements within the batch fold into
   * one fact. Answers per draft, in order, the fact holding it and whether it was new.
   */
  async import(drafts: readonly FactDraft[]): Promise<{ fact: Fact; created: boolean }[]> {
    const { facts, scope } = this.#d;
    if (drafts.length === 0) return [];
    if (drafts.length > MAX_IMPORT) throw new MemoryError("invalid", `at most ${MAX_IMPORT} facts per import`);
    for (const [i, d] of drafts.entries()) checkFactText(d.text, `facts.${i}.text`);
    const contentIds = await Promise.all(drafts.map((d) => factId(scope, d.text, d.agentId)));
    const firstOf = new Map<string, number>();
    contentIds.forEach((cid, i) => {
      firstOf.has(cid) || firstOf.set(cid, i);
    });
    const unique = [...firstOf.entries()];
    const matches = await facts.findByContent(
      scope,
      unique.map(([contentId, i]) => ({ contentId, text: drafts[i]!.text })),
    );
    const now = this.#now();
    const byContent = new Map<string, { fact: Fact; created: boolean }>();
    unique.forEach(([contentId], j) => {
      const match = matches[j];
      const holder = match?.holder ?? null;
      byContent.set(
        contentId,
        holder
          ? { fact: holder, created: false }
          : {
              fact: createFact(match?.idTaken ? freshFactId() : contentId, drafts[firstOf.get(contentId)!]!, now, contentId),
              created: true,
            },
      );
    });
    const results = drafts.map((draft, i) => {
      const cid = contentIds[i]!;
      const entry = byContent.get(cid)!;
      // the first draft of a new fact created it; every other draft is a restatement
      const created = entry.created && firstOf.get(cid) === i;
      if (!created) entry.fact = mergeFact(entry.fact, draft, now);
      return { cid, created };
    });
    await facts.upsert(
      scope,
      [...byContent.values()].map((e) => e.fact),
    );
    return results.map(({ cid, created }) => ({ fact: byContent.get(cid)!.fact, created }));
  }

  /**
   * Applies changes; the id never changes. A new text keeps the old one in its history and is
   * refused (`conflict`) when another fact already holds it, so no text is held twice.
   */
  async update(id: string, changes: FactChanges): Promise<Fact> {
    const { facts, scope } = this.#d;
    if (changes.text !== undefined) checkFactText(changes.text);
    const existing = await this.get(id);
    const now = this.#now();
    let next = mergeFact(
      existing,
      {
        text: changes.text ?? existing.text,
        type: changes.type ?? existing.type,
        importance: existing.importance,
        metadata: changes.metadata,
      },
      now,
    );
    // An explicit importance replaces the old one (merging keeps the higher of the two).
    if (changes.importance !== undefined) next = { ...next, importance: changes.importance };
    if (changes.type !== undefined) next = { ...next, type: changes.type };
    if (changes.text === undefined || normalizeFactText(changes.text) === normalizeFactText(existing.text)) {
      await facts.patch(scope, [next]);
      this.#d.audited?.("fact.update", id);
      return next;
    }
    const retexted = await this.#retext(next);
    if (retexted.holder) throw new MemoryError("conflict", `fact ${retexted.holder.id} already holds this text: change or delete that one`);
    this.#d.audited?.("fact.update", id);
    return retexted.fact;
  }

  /**
   * Stores `fact` (whose text changed) under its own id with the content id of its new text, unless
   * another fact holds that text: then nothing is written and that fact is returned as `holder`.
   */
  async #retext(fact: Fact): Promise<{ fact: Fact; holder: Fact | null }> {
    const { facts, scope } = this.#d;
    const contentId = await factId(scope, fact.text, fact.agentId);
    const [match] = await facts.findByContent(scope, [{ contentId, text: fact.text }]);
    const holder = match?.holder && match.holder.id !== fact.id ? match.holder : null;
    if (holder) return { fact, holder };
    const next = { ...fact, contentId };
    await facts.upsert(scope, [next]);
    return { fact: next, holder: null };
  }

  async recall(query: string, options: FactRecallOptions): Promise<RecalledFact[]> {
    return (await this.recallOutcome(query, options)).facts;
  }

  /** {@link recall} with the dropped candidates and the gate (for traces). */
  async recallOutcome(query: string, options: FactRecallOptions): Promise<RecallOutcome> {
    const { facts, scope } = this.#d;
    return recallFrom(facts, scope, query, { ...options, now: this.#now(), options: this.#d.options });
  }

  /**
   * Extracts facts from new messages and applies them: add, update (a new version of the fact, the
   * old text goes to history), supersede (the old fact stops being true: kept, marked, no longer
   * recalled; the new statement is its own fact) or skip. The user's most similar current facts
   * are given to the extractor so it can tell these apart; an operation naming a fact it was not
   * given is skipped. Facts it writes record the extractor's version (`metadata.learnedBy`).
   */
  async learn(extractor: FactExtractor, messages: StoredMessage[], sourceSession: string): Promise<LearnReport> {
    const { facts, scope } = this.#d;
    const report: LearnReport = { added: [], updated: [], superseded: [], skipped: 0 };
    const userText = messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n");
    if (userText.trim() === "") return report;
    const similar = await facts.query(scope, { text: userText.slice(0, 2000), topK: LEARN_SIMILAR });
    const existing = similar.candidates.map((s) => s.fact).filter((f) => f.supersededAt === undefined);
    const operations = await extractor.extract({ messages, existing });
    const lastUser = [...messages].reverse().find((m) => m.role === "user");
    const metadata = extractor.version === undefined ? undefined : { learnedBy: extractor.version };
    const steps: LearnedStep[] = [];
    for (const op of operations) {
      // Whatever the extractor says, filler ("Remember that.", "ok") never becomes a memory.
      const current = op.op === "update" || op.op === "supersede" ? existing.find((f) => f.id === op.id) : undefined;
      if (op.op === "skip" || isFiller(op.text) || (op.op !== "add" && !current)) {
        report.skipped += 1;
        continue;
      }
      const draft: FactDraft = {
        text: op.text,
        type: op.type,
        importance: op.importance,
        sourceSession,
        sourceMessage: lastUser?.id,
        ...(metadata ? { metadata } : {}),
      };
      // an update keeps the fact's agent; learned statements are shared facts
      const contentId = await factId(scope, draft.text, op.op === "update" ? current?.agentId : undefined);
      steps.push(op.op === "add" ? { op: "add", draft, contentId } : { op: op.op, draft, contentId, current: current! });
    }
    if (steps.length === 0) return report;
    const unique = [...new Map(steps.map((s) => [s.contentId, s.draft.text])).entries()];
    const found = await facts.findByContent(
      scope,
      unique.map(([contentId, text]) => ({ contentId, text })),
    );
    const matches = new Map(unique.map(([contentId], i) => [contentId, found[i] ?? { holder: null, idTaken: false }]));
    // One upsert for the whole turn; a delete (an update folded into the fact that already says
    // it) comes after, so a failure between leaves an extra fact, never a lost one.
    const planned = planLearnedWrites(steps, matches, this.#now());
    if (planned.upserts.length > 0) await facts.upsert(scope, planned.upserts);
    if (planned.deletes.length > 0) await facts.delete(scope, planned.deletes);
    for (const outcome of planned.outcomes) {
      if (outcome.kind === "skipped") report.skipped += 1;
      else if (outcome.kind === "added") report.added.push(outcome.id);
      else if (outcome.kind === "updated") report.updated.push(outcome.id);
      else {
        report.added.push(outcome.by);
        report.superseded.push(outcome.id);
      }
    }
    return report;
  }
}
