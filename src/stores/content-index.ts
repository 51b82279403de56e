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
  KnownFact,
} from "../memory/ports/index.ts";
import type { Fact } from "../memory/model.ts";
import { InvalidStoreInput } from "./errors.ts";
import { assertId, contentIndexKey } from "./keys.ts";
import { CONTENT_CLEAR_LUA, CONTENT_FORGET_LUA, CONTENT_LOOKUP_LUA, CONTENT_RECORD_LUA, CONTENT_REFRESH_LUA } from "./lua/content-index.ts";
import { asList, decodeReply } from "./script-replies.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

/** What the index knows of some content ids, in the order asked. */
export interface ContentLookup {
  complete: boolean;
  /** Where an unfinished build of the index goes on in the fact listing ("" from the start). */
  cursor: string;
  /** The fact holding each content id as its last write left it, or null. */
  holders: (KnownFact | null)[];
  /** Whether a fact uses each content id as its own id. */
  taken: boolean[];
}

/** How a record call changes the build: done, or continued from a listing cursor. */
export type BuildState = { complete: true } | { cursor: string };

/**
 * Which content ids and fact ids a user's facts use, with each fact's version, importance and
 * times, kept beside the facts so that a write can tell a new statement from a restatement
 * without reading the fact index. Narrow on purpose: the decorator below is its only user.
 */
export interface ContentIndex {
  lookup(scope: FactScope, contentIds: string[]): Promise<ContentLookup>;
  /** Records facts as about to be written, and where the index's build stands when given. */
  record(scope: FactScope, facts: readonly Fact[], build?: BuildState): Promise<void>;
  /** Records refreshes about to be written (only facts it knows). */
  refresh(scope: FactScope, refreshes: readonly FactRefresh[]): Promise<void>;
  forget(scope: FactScope, factIds: string[]): Promise<void>;
  clear(scope: FactScope): Promise<void>;
}

const keyOf = (scope: FactScope): string => contentIndexKey(scope.tenant, scope.userId);

/** Longest listing cursor kept (the fact index's cursors are short offsets). */
const MAX_CURSOR = 256;

function buildArg(build: BuildState | undefined): string {
  if (!build) return "";
  if ("complete" in build) return "complete";
  if (build.cursor.length === 0 || build.cursor.length > MAX_CURSOR) throw new InvalidStoreInput("listing cursor must be 1-256 characters");
  return `cursor:${build.cursor}`;
}

const finite = (n: number, what: string): string => {
  if (!Number.isFinite(n)) throw new InvalidStoreInput(`${what} must be a finite number`);
  return String(n);
};

/** A fact's entry: `<content id>|<version>|<importance>|<createdAt>|<updatedAt>`. */
const entryOf = (f: Fact): string =>
  [
    assertId("content id", f.contentId ?? f.id),
    finite(f.version, "version"),
    finite(f.importance, "importance"),
    finite(f.createdAt, "createdAt"),
    finite(f.updatedAt, "updatedAt"),
  ].join("|");

/** The fact an entry describes; null for no holder or an entry that does not parse. */
function knownFrom(id: unknown, entry: unknown): KnownFact | null {
  if (typeof id !== "string" || id === "" || typeof entry !== "string") return null;
  const numbers = entry.split("|").slice(1).map(Number);
  if (numbers.length !== 4 || !numbers.every(Number.isFinite)) return null;
  const [version = 0, importance = 0, createdAt = 0, updatedAt = 0] = numbers;
  return { id, version, importance, createdAt, updatedAt };
}

/** The content index as one Redis hash per user, each operation one script (one round trip). */
export class RedisContentIndex implements ContentIndex {
  readonly #scripts: ScriptRunner;

  constructor(redis: RedisClient) {
    this.#scripts = new ScriptRunner(redis);
  }

  async lookup(scope: FactScope, contentIds: string[]): Promise<ContentLookup> {
    const reply = decodeReply(
      await this.#scripts.run(
        CONTENT_LOOKUP_LUA,
        [keyOf(scope)],
        contentIds.map((c) => assertId("content id", c)),
      ),
      "content lookup",
    );
    const holders = asList(reply.holders);
    const entries = asList(reply.entries);
    const taken = asList(reply.taken);
    return {
      complete: reply.complete === 1,
      cursor: typeof reply.cursor === "string" ? reply.cursor : "",
      holders: contentIds.map((_, i) => knownFrom(holders[i], entries[i])),
      taken: contentIds.map((_, i) => taken[i] === 1),
    };
  }

  async record(scope: FactScope, facts: readonly Fact[], build?: BuildState): Promise<void> {
    if (facts.length === 0 && !build) return;
    const args = facts.map((f): [string, string] => [assertId("fact id", f.id), entryOf(f)]);
    const state = buildArg(build);
    // the build state goes with the last chunk: an index is complete only once every fact is in
    for (let i = 0; i < Math.max(1, args.length); i += RECORD_CHUNK) {
      const last = i + RECORD_CHUNK >= args.length;
      await this.#scripts.run(CONTENT_RECORD_LUA, [keyOf(scope)], [last ? state : "", ...args.slice(i, i + RECORD_CHUNK).flat()]);
    }
  }

  async refresh(scope: FactScope, refreshes: readonly FactRefresh[]): Promise<void> {
    if (refreshes.length === 0) return;
    const args = refreshes.flatMap((r) => [assertId("fact id", r.id), finite(r.version, "version"), finite(r.updatedAt, "updatedAt")]);
    await this.#scripts.run(CONTENT_REFRESH_LUA, [keyOf(scope)], args);
  }

  async forget(scope: FactScope, factIds: string[]): Promise<void> {
    if (factIds.length === 0) return;
    await this.#scripts.run(
      CONTENT_FORGET_LUA,
      [keyOf(scope)],
      factIds.map((id) => assertId("fact id", id)),
    );
  }

  async clear(scope: FactScope): Promise<void> {
    await this.#scripts.run(CONTENT_CLEAR_LUA, [keyOf(scope)], []);
  }
}

export interface ContentIndexOptions {
  /** Facts listed per page while a user's index is built. @default 1000 */
  buildPage?: number;
  /** Pages listed at most by one lookup while a user's index is built. @default 5 */
  buildPages?: number;
}

/** Facts recorded per script call, so one call stays short on any Redis (and on the embedded engine). */
const RECORD_CHUNK = 500;

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
