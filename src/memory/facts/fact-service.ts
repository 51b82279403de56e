/** @module FactService: writing, editing, importing, recalling and learning one user's long-term facts. */
import { MemoryError } from "../errors.ts";
import { redactFactText } from "./fact-guard.ts";
import { checkFactText } from "./fact-text.ts";
import { isEmptyFilter, matchesFilter, type FactFilter, type FactListOptions } from "./filter.ts";
import { createFact, factId, freshFactId, mergeFact, normalizeFactText, reinstated, type FactDraft } from "./identity.ts";
import { learnTurn, type LearnReport } from "./learn-turn.ts";
import type { LearnTurn } from "./learning-view.ts";
import type { MemoryOptions } from "../options.ts";
import { recallFrom, type RecallOutcome } from "./recall.ts";
import { repairAfterDelete } from "./supersession.ts";
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

  /**
   * Same text, same fact: a second write refreshes the fact holding that text (edited or not).
   * Secrets in the text are stored redacted; a text that says nothing but a secret is refused.
   */
  async remember(written: FactDraft): Promise<{ fact: Fact; created: boolean }> {
    const { facts, scope } = this.#d;
    checkFactText(written.text);
    const draft = this.#redacted(written);
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
  async import(written: readonly FactDraft[]): Promise<{ fact: Fact; created: boolean }[]> {
    const { facts, scope } = this.#d;
    if (written.length === 0) return [];
    if (written.length > MAX_IMPORT) throw new MemoryError("invalid", `at most ${MAX_IMPORT} facts per import`);
    for (const [i, d] of written.entries()) checkFactText(d.text, `facts.${i}.text`);
    const drafts = written.map((d, i) => this.#redacted(d, `facts[${i}]`));
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
  async update(id: string, asked: FactChanges): Promise<Fact> {
    const { facts, scope } = this.#d;
    if (asked.text !== undefined) checkFactText(asked.text);
    const changes = asked.text === undefined ? asked : { ...asked, text: this.#redactedText(asked.text, "text") };
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

  /** `draft` with its text redacted (see {@link redactFactText}); `invalid` when only a secret would be left. */
  #redacted(draft: FactDraft, field = "text"): FactDraft {
    const text = this.#redactedText(draft.text, field);
    return text === draft.text ? draft : { ...draft, text };
  }

  #redactedText(text: string, field: string): string {
    const guarded = redactFactText(text, this.#d.options.redact);
    if (guarded.onlySecret)
      throw new MemoryError(
        "invalid",
        `${field} holds nothing but sensitive data (a credential, card, id or account number), which is not stored`,
      );
    return guarded.text;
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

  /** One learning turn on this user's facts (see {@link learnTurn}). */
  learn(extractor: FactExtractor, said: StoredMessage[], sourceSession: string, turn: LearnTurn = {}): Promise<LearnReport> {
    return learnTurn({ ...this.#d, now: this.#now }, extractor, said, sourceSession, turn);
  }
}
