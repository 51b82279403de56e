/** A fact store decorator answering content lookups from the content index, so a write needs no read of the fact index. */
import type {
  ContentMatch,
  ContentRef,
  FactAccess,
  FactMatches,
  FactPage,
  FactQuery,
  FactRefresh,
  FactScope,
  FactStore,
} from "../memory/ports/index.ts";
import type { Fact } from "../memory/model.ts";
import type { ContentIndex } from "./content-index.ts";

export interface ContentIndexOptions {
  /** Facts listed per page while a user's index is built. @default 1000 */
  buildPage?: number;
  /** Pages listed at most by one lookup while a user's index is built. @default 5 */
  buildPages?: number;
}

/**
 * A fact store whose content lookups ask the content index first, so that writing a new fact costs
 * one fact-index request (the upsert) instead of a read and then the upsert, and a restatement
 * that adds nothing costs one metadata update (`refresh`).
 *
 * Invariant: once a user's index is complete, every content id and fact id the user's facts use is
 * in it, each fact with its version, importance and times as its last write left them. Writers
 * keep it so by recording before they write and forgetting after they delete, so a failure
 * between the two leaves an extra or a newer entry, never a missing one: an extra entry only costs
 * a fetch (or a refresh) that finds nothing, and a version taken from a newer entry still grows. A
 * content id the complete index does not know is therefore new (no request at all); a known one is
 * answered by fetching the recorded holder, or with what the index knows of it (`known: true`).
 *
 * An incomplete index (a user whose facts predate it, or whose index was lost) answers nothing:
 * each lookup then builds it on from a listing of the user's facts (`buildPages` pages at most per
 * lookup) and goes to the fact index, unless that listing held all of them and answers it (a new
 * user's first write: one listing and the upsert).
 */
export class ContentIndexedFactStore implements FactStore {
  readonly #facts: FactStore;
  readonly #index: ContentIndex;
  readonly #page: number;
  readonly #pages: number;

  constructor(facts: FactStore, index: ContentIndex, options: ContentIndexOptions = {}) {
    this.#facts = facts;
    this.#index = index;
    this.#page = options.buildPage ?? 1000;
    this.#pages = options.buildPages ?? 5;
  }

  async findByContent(scope: FactScope, contents: ContentRef[], options: { known?: boolean } = {}): Promise<ContentMatch[]> {
    if (contents.length === 0) return [];
    const { complete, cursor, holders, taken } = await this.#index.lookup(
      scope,
      contents.map((c) => c.contentId),
    );
    if (!complete) {
      const built = await this.#build(scope, cursor);
      return built ? contents.map((c) => matchIn(built, c.contentId)) : this.#facts.findByContent(scope, contents);
    }
    // Asked for what the index knows: no request at all.
    if (options.known) return contents.map((_, i) => ({ holder: null, idTaken: taken[i] === true, known: holders[i] ?? undefined }));
    // The recorded holders, and the facts using a content id as their id: one fetch, when any.
    const ids = [...new Set(contents.flatMap((c, i) => [...(holders[i] ? [holders[i].id] : []), ...(taken[i] ? [c.contentId] : [])]))];
    const fetched = ids.length > 0 ? (await this.#facts.get(scope, ids)).filter((f): f is Fact => f !== null) : [];
    return contents.map((c) => matchIn(fetched, c.contentId));
  }

  async upsert(scope: FactScope, facts: Fact[]): Promise<void> {
    await this.#index.record(scope, facts);
    await this.#facts.upsert(scope, facts);
  }

  async patch(scope: FactScope, facts: Fact[]): Promise<void> {
    await this.#index.record(scope, facts);
    await this.#facts.patch(scope, facts);
  }

  async refresh(scope: FactScope, refreshes: FactRefresh[]): Promise<string[]> {
    await this.#index.refresh(scope, refreshes);
    const missing = await this.#facts.refresh(scope, refreshes);
    await this.#index.forget(scope, missing);
    return missing;
  }

  async delete(scope: FactScope, ids: string[]): Promise<number> {
    const deleted = await this.#facts.delete(scope, ids);
    await this.#index.forget(scope, ids);
    return deleted;
  }

  async deleteAll(scope: FactScope): Promise<number> {
    const deleted = await this.#facts.deleteAll(scope);
    await this.#index.clear(scope);
    return deleted;
  }

  query(scope: FactScope, query: FactQuery): Promise<FactMatches> {
    return this.#facts.query(scope, query);
  }

  get(scope: FactScope, ids: string[]): Promise<(Fact | null)[]> {
    return this.#facts.get(scope, ids);
  }

  touch(scope: FactScope, accesses: FactAccess[]): Promise<void> {
    return this.#facts.touch(scope, accesses);
  }

  supersededBy(scope: FactScope, fact: Fact): Promise<Fact[]> {
    return this.#facts.supersededBy(scope, fact);
  }

  list(scope: FactScope, cursor: string, limit: number): Promise<FactPage> {
    return this.#facts.list(scope, cursor, limit);
  }

  scopes(): Promise<FactScope[]> {
    return this.#facts.scopes();
  }

  /**
   * Goes on building the index from `from` in the user's fact listing, at most `buildPages`
   * pages. Returns every fact of the user when one call listed them all from
   * the start (they answer the lookup), otherwise null.
   */
  async #build(scope: FactScope, from: string): Promise<Fact[] | null> {
    const facts: Fact[] = [];
    let cursor = from;
    for (let page = 0; page < this.#pages; page += 1) {
      const listed = await this.#facts.list(scope, cursor, this.#page);
      facts.push(...listed.facts);
      cursor = listed.facts.length > 0 ? listed.nextCursor : "";
      if (cursor === "") break;
    }
    await this.#index.record(scope, facts, cursor === "" ? { complete: true } : { cursor });
    return cursor === "" && from === "" ? facts : null;
  }
}

/** {@link FactStore.findByContent}'s answer for one content id, from all of a user's facts. */
function matchIn(facts: readonly Fact[], contentId: string): ContentMatch {
  const holder = facts.find((f) => (f.contentId ?? f.id) === contentId) ?? null;
  return { holder, idTaken: facts.some((f) => f.id === contentId) };
}
