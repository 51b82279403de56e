import { createFact, factId, mergeFact, normalizeFactText, rankRecalled, type FactDraft } from "./facts.ts";
import type { MemoryOptions } from "./options.ts";
import type { FactExtractor, FactScope, FactStore } from "./ports.ts";
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

  /** Applies changes; a new text re-embeds the fact and keeps the old text in its history. */
  async update(id: string, changes: FactChanges): Promise<Fact | null> {
    const { facts, scope } = this.#d;
    const [existing] = await facts.get(scope, [id]);
    if (!existing) return null;
    const now = this.#now();
    const textChanged = changes.text !== undefined && normalizeFactText(changes.text) !== normalizeFactText(existing.text);
    let next = mergeFact(
      existing,
      { text: changes.text ?? existing.text, type: changes.type ?? existing.type, importance: existing.importance, metadata: changes.metadata },
      now,
    );
    // An explicit importance replaces the old one (merging keeps the higher of the two).
    if (changes.importance !== undefined) next = { ...next, importance: changes.importance };
    if (changes.type !== undefined) next = { ...next, type: changes.type };
    if (textChanged) await facts.upsert(scope, [next]);
    else await facts.patch(scope, [next]);
    return next;
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
        await facts.upsert(scope, [mergeFact(current, draft, this.#now())]);
        report.updated.push(op.id);
      } else {
        const { fact } = await this.remember(draft);
        report.added.push(fact.id);
      }
    }
    return report;
  }
}
