/** The content index (which content ids and fact ids a user's facts use) and its adapter: one Redis hash per user. */
import type { FactRefresh, FactScope, KnownFact } from "../memory/ports/index.ts";
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
 * without reading the fact index. Narrow on purpose: its only user is `ContentIndexedFactStore`
 * (content-indexed-facts.ts), so it is a port of the stores, not of the domain.
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

/** Facts recorded per script call, so one call stays short on any Redis (and on the embedded engine). */
const RECORD_CHUNK = 500;

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
