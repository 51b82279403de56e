import { MemoryError } from "./errors.ts";
import { MAX_FACT_HISTORY, createFact, factId, mergeFact, normalizeFactText, rankRecalled, type FactDraft } from "./facts.ts";
import type { MemoryOptions } from "./options.ts";
import type { FactExtractor, FactPage, FactScope, FactStore } from "./ports.ts";
import type { Fact, FactType, RecalledFact, StoredMessage } from "./types.ts";

export interface FactServiceDeps {
  facts: FactStore;
  scope: FactScope;
  options: MemoryOptions;
  /** Clock in ms. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** Changes a client may make to a stored fact. */
export interface FactChanges {
  text?: string | undefined;
  type?: FactType | undefined;
  importance?: number | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export interface LearnReport {
  added: string[];
  updated: string[];
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

  /** A page of the user's facts in storage order, optionally of some types only. */
  async list(cursor: string, limit: number, types?: readonly FactType[]): Promise<FactPage> {
    const page = await this.#d.facts.list(this.#d.scope, cursor, limit);
    return types && types.length > 0 ? { ...page, facts: page.facts.filter((f) => types.includes(f.type)) } : page;
  }

  /** Deletes one fact; `not_found` when there was none. */
  async delete(id: string): Promise<void> {
    const deleted = await this.#d.facts.delete(this.#d.scope, [id]);
    if (deleted === 0) throw new MemoryError("not_found", `no fact ${id}`);
  }

  /** Same text, same id: a second write refreshes the fact instead of creating another. */
  async remember(draft: FactDraft): Promise<{ fact: Fact; created: boolean }> {
    const { facts, scope } = this.#d;
    const id = await factId(scope, draft.text);
    const [existing] = await facts.get(scope, [id]);
    const now = this.#now();
    const fact = existing ? mergeFact(existing, draft, now) : createFact(id, draft, now);
    await facts.upsert(scope, [fact]);
    return { fact, created: !existing };
  }

  /**
   * Applies changes. A new text moves the fact to the id of that text (same text, same id), keeps
   * the old text in its history and folds into a fact that already holds the new text.
   */
  async update(id: string, changes: FactChanges): Promise<Fact> {
    const { facts, scope } = this.#d;
    const existing = await this.get(id);
    const now = this.#now();
    let next = mergeFact(
      existing,
      { text: changes.text ?? existing.text, type: changes.type ?? existing.type, importance: existing.importance, metadata: changes.metadata },
      now,
    );
    // An explicit importance replaces the old one (merging keeps the higher of the two).
    if (changes.importance !== undefined) next = { ...next, importance: changes.importance };
    if (changes.type !== undefined) next = { ...next, type: changes.type };
    if (changes.text === undefined || normalizeFactText(changes.text) === normalizeFactText(existing.text)) {
      await facts.patch(scope, [next]);
      return next;
    }
    return this.#rekey(next, id);
  }

  /** Stores `fact` under the id of its (new) text, merged into any fact already there, and drops `oldId`. */
  async #rekey(fact: Fact, oldId: string): Promise<Fact> {
    const { facts, scope } = this.#d;
    const newId = await factId(scope, fact.text);
    const [holder] = newId === oldId ? [null] : await facts.get(scope, [newId]);
    const moved: Fact = holder
      ? { ...mergeFact(holder, fact, this.#now()), history: [...(holder.history ?? []), ...(fact.history ?? [])].slice(-MAX_FACT_HISTORY) }
      : { ...fact, id: newId };
    await facts.upsert(scope, [moved]);
    if (newId !== oldId) await facts.delete(scope, [oldId]);
    return moved;
  }

  async recall(query: string, options: { k: number; types?: FactType[] | undefined; minScore?: number | undefined }): Promise<RecalledFact[]> {
    const { facts, scope } = this.#d;
    const topK = Math.min(100, Math.max(options.k * 3, options.k + 5));
    const candidates = await facts.query(scope, { text: query, topK, types: options.types });
    const opts = this.#d.options;
    return rankRecalled(candidates, {
      k: options.k,
      minScore: options.minScore ?? opts.minRecallScore,
      types: options.types,
      now: this.#now(),
      options: opts,
    });
  }

  /**
   * Extracts facts from new messages and applies them: add, update (latest wins, the old text goes
   * to history) or skip. The most similar existing facts are given to the extractor so it can tell
   * an update from a new fact.
   */
  async learn(extractor: FactExtractor, messages: StoredMessage[], sourceSession: string): Promise<LearnReport> {
    const { facts, scope } = this.#d;
    const report: LearnReport = { added: [], updated: [], skipped: 0 };
    const userText = messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
    if (userText.trim() === "") return report;
    const similar = await facts.query(scope, { text: userText.slice(0, 2000), topK: 5 });
    const existing = similar.map((s) => s.fact);
    const operations = await extractor.extract({ messages, existing });
    const lastUser = [...messages].reverse().find((m) => m.role === "user");
    for (const op of operations) {
      if (op.op === "skip") {
        report.skipped += 1;
        continue;
      }
      const draft: FactDraft = { text: op.text, type: op.type, importance: op.importance, sourceSession, sourceMessage: lastUser?.id };
      if (op.op === "update") {
        const current = existing.find((f) => f.id === op.id);
        if (!current) {
          report.skipped += 1;
          continue;
        }
        const moved = await this.#rekey(mergeFact(current, draft, this.#now()), current.id);
        report.updated.push(moved.id);
      } else {
        const { fact } = await this.remember(draft);
        report.added.push(fact.id);
      }
    }
    return report;
  }
}
