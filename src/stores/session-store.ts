/** @module RedisSessionStore: sessions on Upstash Redis, each operation one Lua script and one round trip. */
import type {
  HeadLimits,
  WindowBound,
  AppendOptions,
  AppendResult,
  CommitOutcome,
  CompressionCommit,
  HistoryPage,
  IndexSweep,
  ResetResult,
  SessionDump,
  SessionIdPage,
  SessionStore,
  SettingsChange,
  UserSessionsErased,
} from "../memory/ports/index.ts";
import { orphanToolMessage, tsBeforePrevious } from "../memory/sessions/index.ts";
import type { SessionRef, SessionSettings, SessionSnapshot, StoredMessage } from "../memory/model.ts";
import { MemoryError } from "../memory/errors.ts";
import { InvalidStoreInput, SessionOwnerMismatch, UnexpectedReply } from "./errors.ts";
import { appendArgs, boundArgs, commitArgs, isCount, settingsArgs } from "./session-args.ts";
import {
  assertId,
  eraseJobKey,
  luaKeyParts,
  ownersKey,
  sessionKeys,
  tenantSessionsKey,
  tenantUserSets,
  userRecordKeys,
  userSessionsKey,
} from "./keys.ts";
import { APPEND_LUA } from "./lua/append.ts";
import { COMMIT_LUA } from "./lua/commit.ts";
import { HISTORY_LUA } from "./lua/history.ts";
import { UNLOCK_LUA } from "./lua/lock.ts";
import { OWNER_LUA, READ_HEAD_LUA, READ_LUA, READ_PAGE_LUA } from "./lua/read.ts";
import { RESET_LUA } from "./lua/reset.ts";
import { SETTINGS_LUA } from "./lua/settings.ts";
import { ERASE_SESSIONS_LUA, EXPORT_SESSIONS_LUA, SUMMARY_FAILURE_LUA, SWEEP_LUA, USER_SESSIONS_LUA } from "./lua/user-sessions.ts";
import {
  asList,
  asMap,
  asStrings,
  decodeReply,
  num,
  parseMessages,
  parseOutcome,
  parseSessionList,
  parseSettings,
  parseSnapshot,
  parseSummary,
  parseTotals,
} from "./script-replies.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** Clock for `created`/`updated` and index scores, in ms. Default `Date.now`. */
  now?: () => number;
  /** Tenant-index entries examined per sweep call (one round trip). Default 200. */
  sweepLimit?: number;
}

/** The session keys in the order the scripts take them (sys win sum meta arc ids). */
function coreKeys(ref: SessionRef): string[] {
  const k = sessionKeys(ref);
  return [k.sys, k.win, k.sum, k.meta, k.arc, k.ids];
}

const page = (p: { offset: number; limit: number }): [string, string] => {
  if (!isCount(p.offset) || !isCount(p.limit) || p.limit === 0)
    throw new InvalidStoreInput("offset and limit must be non-negative integers, limit > 0");
  return [String(p.offset), String(p.limit)];
};

/** {@link SessionStore} on Upstash Redis: every operation is one script, one round trip. */
export class RedisSessionStore implements SessionStore {
  readonly #redis: RedisClient;
  readonly #scripts: ScriptRunner;
  readonly #now: () => number;
  readonly #sweepLimit: number;

  constructor(redis: RedisClient, options: RedisSessionStoreOptions = {}) {
    this.#redis = redis;
    this.#scripts = new ScriptRunner(redis);
    this.#now = options.now ?? Date.now;
    this.#sweepLimit = options.sweepLimit ?? 200;
  }

  async append(ref: SessionRef, messages: StoredMessage[], options: AppendOptions): Promise<AppendResult> {
    const args = appendArgs(ref, messages, options, this.#now());
    // Without a user nothing is queued or counted; the tenant sets stand in for the user's keys.
    const sets = tenantUserSets(ref.tenant);
    const user =
      options.userId === undefined ? { pending: sets.pendingUsers, recalls: sets.recallUsers } : userRecordKeys(ref.tenant, options.userId);
    const keys = [
      ...coreKeys(ref),
      tenantSessionsKey(ref.tenant),
      ownersKey(ref.tenant),
      user.pending,
      sets.pendingUsers,
      user.recalls,
      sets.recallUsers,
    ];
    keys.push(sessionKeys(ref).turns);
    // The tombstone the `e<since>` flag checks (the user's own; a tenant set stands in without one).
    keys.push(options.userId === undefined ? sets.pendingUsers : userRecordKeys(ref.tenant, options.userId).tombstone);
    const reply = decodeReply(await this.#scripts.run(APPEND_LUA, keys, args), "append");
    if (reply.err === "owner_mismatch") throw new SessionOwnerMismatch();
    if (reply.err === "erased") throw new MemoryError("conflict", "the user was erased while this turn ran; the reply was not stored");
    if (reply.err === "orphan_tool") {
      const index = num(reply.index, -1);
      throw orphanToolMessage(index, messages[index]?.tool_call_id ?? "(none)");
    }
    if (reply.err === "ts_before_previous") {
      const index = num(reply.index, -1);
      throw tsBeforePrevious(index, messages[index]?.ts, num(reply.previous));
    }
    const flags = asList(reply.added);
    if (flags.length !== messages.length) throw new UnexpectedReply("append");
    return {
      added: messages.map((m, i) => ({ id: m.id, tokens: m.tokens, duplicate: flags[i] !== 1 })),
      windowCount: num(reply.wcount),
      windowTokens: num(reply.wtok),
      totals: parseTotals(reply),
      settings: parseSettings(asMap(reply.meta)),
      snapshot: options.withSnapshot ? parseSnapshot(reply.snap) : undefined,
      ...(options.turn ? { outcome: parseOutcome(reply.outcome) } : {}),
    };
  }

  async owner(ref: SessionRef): Promise<string | null> {
    return (await this.ownership(ref)).owner;
  }

  async ownership(ref: SessionRef): Promise<{ exists: boolean; owner: string | null }> {
    const owner = await this.#scripts.run(OWNER_LUA, [sessionKeys(ref).meta], []);
    return { exists: typeof owner === "string", owner: typeof owner === "string" && owner !== "" ? owner : null };
  }

  async read(ref: SessionRef, bound?: WindowBound): Promise<SessionSnapshot> {
    const k = sessionKeys(ref);
    const reply = await this.#scripts.run(READ_LUA, [k.sys, k.win, k.sum, k.meta], boundArgs(bound));
    return parseSnapshot(decodeReply(reply, "read"));
  }

  async readPage(ref: SessionRef, p: { offset: number; limit: number }): Promise<SessionSnapshot> {
    const k = sessionKeys(ref);
    const reply = await this.#scripts.run(READ_PAGE_LUA, [k.sys, k.win, k.sum, k.meta], page(p));
    return parseSnapshot(decodeReply(reply, "readPage"));
  }

  async readHead(ref: SessionRef, limits: HeadLimits): Promise<SessionSnapshot> {
    if (!isCount(limits.maxTokens) || !isCount(limits.maxMessages) || limits.maxMessages === 0) {
      throw new InvalidStoreInput("head limits must be non-negative integers, maxMessages > 0");
    }
    const k = sessionKeys(ref);
    const reply = await this.#scripts.run(
      READ_HEAD_LUA,
      [k.sys, k.win, k.sum, k.meta],
      [String(limits.maxTokens), String(limits.maxMessages)],
    );
    return parseSnapshot(decodeReply(reply, "readHead"));
  }

  async updateSettings(ref: SessionRef, change: SettingsChange, defaultTtlSeconds: number): Promise<SessionSettings> {
    const args = settingsArgs(ref, change, defaultTtlSeconds, this.#now());
    const reply = await this.#scripts.run(SETTINGS_LUA, [...coreKeys(ref), tenantSessionsKey(ref.tenant)], args);
    return parseSettings(asMap(decodeReply(reply, "updateSettings")));
  }

  async reset(ref: SessionRef, options: { keepSystem: boolean }): Promise<ResetResult> {
    const k = sessionKeys(ref);
    const keys = [k.sys, k.win, k.sum, k.meta, k.arc, k.ids, k.notes, k.pad, k.turns];
    const reply = decodeReply(await this.#scripts.run(RESET_LUA, keys, [options.keepSystem ? "1" : "0"]), "reset");
    return { removedMessages: num(reply.removed), keptSystem: num(reply.kept) };
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

  async recordSummaryFailure(ref: SessionRef): Promise<number> {
    return num(await this.#scripts.run(SUMMARY_FAILURE_LUA, [sessionKeys(ref).meta], []));
  }

  async acquireLock(ref: SessionRef, token: string, ttlMs: number): Promise<boolean> {
    if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) throw new InvalidStoreInput("lock ttl must be a positive integer");
    const result = await this.#redis.set(sessionKeys(ref).lock, token, { nx: true, px: ttlMs });
    return result === "OK";
  }

  async releaseLock(ref: SessionRef, token: string): Promise<void> {
    await this.#scripts.run(UNLOCK_LUA, [sessionKeys(ref).lock], [token]);
  }

  async history(ref: SessionRef, p: { offset: number; limit: number }): Promise<HistoryPage> {
    if (!isCount(p.offset) || !isCount(p.limit)) throw new InvalidStoreInput("offset and limit must be non-negative integers");
    const k = sessionKeys(ref);
    const reply = decodeReply(await this.#scripts.run(HISTORY_LUA, [k.sum, k.arc], [String(p.offset), String(p.limit)]), "history");
    return { summary: parseSummary(asMap(reply.sum)), archived: parseMessages(reply.arc, "history"), total: num(reply.total) };
  }

  async userSessions(tenant: string, userId: string, p: { offset: number; limit: number }): Promise<SessionIdPage> {
    const [offset, limit] = page(p);
    const args = [assertId("userId", userId), luaKeyParts(tenant).sessionPrefix, offset, limit];
    const reply = decodeReply(await this.#scripts.run(USER_SESSIONS_LUA, [userSessionsKey(tenant, userId)], args), "userSessions");
    const scanned = num(reply.scanned);
    const sessions = parseSessionList(reply.sessions);
    return { ids: sessions.map((s) => s.sessionId), sessions, next: scanned < p.limit ? null : p.offset + scanned };
  }

  async exportSessions(
    tenant: string,
    userId: string,
    p: { offset: number; limit: number; maxBytes?: number },
  ): Promise<{ sessions: SessionDump[]; next: number | null }> {
    const [offset, limit] = page(p);
    const maxBytes = p.maxBytes ?? 0;
    if (!isCount(maxBytes)) throw new InvalidStoreInput("maxBytes must be a non-negative integer");
    const args = [assertId("userId", userId), luaKeyParts(tenant).sessionPrefix, offset, limit, String(maxBytes)];
    const reply = decodeReply(await this.#scripts.run(EXPORT_SESSIONS_LUA, [userSessionsKey(tenant, userId)], args), "exportSessions");
    const sessions = asList(reply.sessions).map((raw): SessionDump => {
      const s = decodeReply(raw, "exportSessions");
      if (typeof s.id !== "string") throw new UnexpectedReply("exportSessions");
      return {
        sessionId: s.id,
        snapshot: parseSnapshot(s),
        archived: parseMessages(s.arc, "exportSessions"),
        notes: asMap(s.notes),
        scratchpad: asStrings(s.pad),
        turns: asList(s.turns).flatMap((raw) => parseOutcome(raw) ?? []),
      };
    });
    const scanned = num(reply.scanned);
    // A page cut short by its byte budget continues at the next entry.
    const cut = reply.full === false;
    return { sessions, next: scanned < p.limit && !cut ? null : p.offset + scanned };
  }

  async eraseUserSessions(tenant: string, userId: string, limit: number): Promise<UserSessionsErased> {
    if (!isCount(limit) || limit === 0) throw new InvalidStoreInput("limit must be a positive integer");
    const keys = [userSessionsKey(tenant, userId), tenantSessionsKey(tenant), ownersKey(tenant), eraseJobKey(tenant, userId)];
    const args = [assertId("userId", userId), luaKeyParts(tenant).sessionPrefix, String(limit)];
    const r = decodeReply(await this.#scripts.run(ERASE_SESSIONS_LUA, keys, args), "eraseUserSessions");
    return {
      sessions: num(r.sessions),
      messages: num(r.messages),
      archived: num(r.archived),
      notes: num(r.notes),
      skipped: num(r.skipped),
      more: r.more === true,
    };
  }

  async sweepIndexes(tenant: string, cursor: string): Promise<IndexSweep> {
    const offset = cursor === "" ? 0 : Number(cursor);
    if (!/^\d*$/.test(cursor) || !Number.isSafeInteger(offset)) throw new InvalidStoreInput("invalid sweep cursor");
    const parts = luaKeyParts(tenant);
    const limit = this.#sweepLimit;
    const args = [String(offset), String(limit), parts.sessionPrefix, parts.userPrefix, parts.userSuffix];
    const reply = decodeReply(await this.#scripts.run(SWEEP_LUA, [tenantSessionsKey(tenant), ownersKey(tenant)], args), "sweepIndexes");
    const scanned = num(reply.scanned);
    const removed = asStrings(reply.removed);
    // Removed entries shift the ranks, so the cursor advances by the entries that were kept.
    return { nextCursor: scanned < limit ? "" : String(offset + scanned - removed.length), removed };
  }
}
