import type {
  AppendOptions,
  AppendResult,
  CommitOutcome,
  CompressionCommit,
  HistoryPage,
  ResetResult,
  SessionStore,
} from "../memory/ports.ts";
import type { SessionRef, SessionSettings, SessionSnapshot, StoredMessage } from "../memory/types.ts";
import { InvalidStoreInput, SessionOwnerMismatch, UnexpectedReply } from "./errors.ts";
import { appendArgs, commitArgs, isCount, settingsArgs } from "./session-args.ts";
import { luaKeyParts, sessionKeys, tenantSessionsKey, userSessionsKey } from "./keys.ts";
import { APPEND_LUA } from "./lua/append.ts";
import { COMMIT_LUA } from "./lua/commit.ts";
import { DESTROY_LUA } from "./lua/destroy.ts";
import { HISTORY_LUA } from "./lua/history.ts";
import { UNLOCK_LUA } from "./lua/lock.ts";
import { READ_LUA } from "./lua/read.ts";
import { RESET_LUA } from "./lua/reset.ts";
import { SETTINGS_LUA } from "./lua/settings.ts";
import { asList, asMap, decodeReply, num, parseMessages, parseSettings, parseSnapshot, parseSummary } from "./reply.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** Clock for `created`/`updated` and index scores, in ms. Default `Date.now`. */
  now?: () => number;
}

/** The session keys in the order the scripts take them (sys win sum meta arc ids). */
function coreKeys(ref: SessionRef): string[] {
  const k = sessionKeys(ref);
  return [k.sys, k.win, k.sum, k.meta, k.arc, k.ids];
}

/** {@link SessionStore} on Upstash Redis: every operation is one script, one round trip. */
export class RedisSessionStore implements SessionStore {
  readonly #redis: RedisClient;
  readonly #scripts: ScriptRunner;
  readonly #now: () => number;

  constructor(redis: RedisClient, options: RedisSessionStoreOptions = {}) {
    this.#redis = redis;
    this.#scripts = new ScriptRunner(redis);
    this.#now = options.now ?? Date.now;
  }

  async append(ref: SessionRef, messages: StoredMessage[], options: AppendOptions): Promise<AppendResult> {
    const args = appendArgs(ref, messages, options, this.#now());
    const reply = decodeReply(await this.#scripts.run(APPEND_LUA, [...coreKeys(ref), tenantSessionsKey(ref.tenant)], args), "append");
    if (reply.err === "owner_mismatch") throw new SessionOwnerMismatch();
    const flags = asList(reply.added);
    if (flags.length !== messages.length) throw new UnexpectedReply("append");
    return {
      added: messages.map((m, i) => ({ id: m.id, tokens: m.tokens, duplicate: flags[i] !== 1 })),
      windowCount: num(reply.wcount),
      windowTokens: num(reply.wtok),
      snapshot: options.withSnapshot ? parseSnapshot(reply.snap) : undefined,
    };
  }

  async read(ref: SessionRef): Promise<SessionSnapshot> {
    const k = sessionKeys(ref);
    const reply = await this.#scripts.run(READ_LUA, [k.sys, k.win, k.sum, k.meta], []);
    return parseSnapshot(decodeReply(reply, "read"));
  }

  async putSettings(ref: SessionRef, settings: SessionSettings, ttlSeconds: number): Promise<SessionSettings> {
    const args = settingsArgs(ref, settings, ttlSeconds, this.#now());
    const reply = await this.#scripts.run(SETTINGS_LUA, [...coreKeys(ref), tenantSessionsKey(ref.tenant)], args);
    return parseSettings(asMap(decodeReply(reply, "putSettings")));
  }

  async reset(ref: SessionRef, options: { keepSystem: boolean }): Promise<ResetResult> {
    const k = sessionKeys(ref);
    const keys = [k.sys, k.win, k.sum, k.meta, k.arc, k.ids, k.notes, k.pad];
    const reply = decodeReply(await this.#scripts.run(RESET_LUA, keys, [options.keepSystem ? "1" : "0"]), "reset");
    return { removedMessages: num(reply.removed), keptSystem: num(reply.kept) };
  }

  async destroy(ref: SessionRef): Promise<boolean> {
    const k = sessionKeys(ref);
    const parts = luaKeyParts(ref.tenant);
    const keys = [k.sys, k.win, k.sum, k.meta, k.arc, k.ids, k.notes, k.pad, k.lock, tenantSessionsKey(ref.tenant)];
    const deleted = await this.#scripts.run(DESTROY_LUA, keys, [ref.sessionId, parts.userPrefix, parts.userSuffix]);
    return num(deleted) > 0;
  }

  async commitCompression(ref: SessionRef, commit: CompressionCommit): Promise<CommitOutcome> {
    const args = commitArgs(commit);
    const reply = decodeReply(await this.#scripts.run(COMMIT_LUA, coreKeys(ref), args), "commitCompression");
    if (reply.committed === true) return { committed: true, removedTokens: num(reply.removedTokens) };
    const reason = reply.reason;
    if (reason === "reset" || reason === "version_changed" || reason === "prefix_changed" || reason === "missing") {
      return { committed: false, reason };
    }
    throw new UnexpectedReply("commitCompression");
  }

  async acquireLock(ref: SessionRef, token: string, ttlMs: number): Promise<boolean> {
    if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) throw new InvalidStoreInput("lock ttl must be a positive integer");
    const result = await this.#redis.set(sessionKeys(ref).lock, token, { nx: true, px: ttlMs });
    return result === "OK";
  }

  async releaseLock(ref: SessionRef, token: string): Promise<void> {
    await this.#scripts.run(UNLOCK_LUA, [sessionKeys(ref).lock], [token]);
  }

  async history(ref: SessionRef, page: { offset: number; limit: number }): Promise<HistoryPage> {
    if (!isCount(page.offset) || !isCount(page.limit)) throw new InvalidStoreInput("offset and limit must be non-negative integers");
    const k = sessionKeys(ref);
    const reply = decodeReply(await this.#scripts.run(HISTORY_LUA, [k.sum, k.arc], [String(page.offset), String(page.limit)]), "history");
    return { summary: parseSummary(asMap(reply.sum)), archived: parseMessages(reply.arc, "history"), total: num(reply.total) };
  }

  async userSessions(tenant: string, userId: string): Promise<string[]> {
    const ids = await this.#redis.zrange<unknown[]>(userSessionsKey(tenant, userId), 0, -1, { rev: true });
    // The client JSON-parses members ("123" -> 123); valid ids round-trip through String().
    return ids.map((id) => String(id));
  }
}
