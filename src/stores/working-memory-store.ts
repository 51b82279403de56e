/** @module RedisWorkingMemoryStore: a session's notes and scratchpad in Redis, each with its own short TTL. */
import type { NoteCaps, NoteRefusal, WorkingMemoryStore } from "../memory/ports/index.ts";
import type { SessionRef } from "../memory/model.ts";
import { InvalidStoreInput } from "./errors.ts";
import { sessionKeys } from "./keys.ts";
import {
  NOTE_GET_LUA,
  NOTE_SET_LUA,
  NOTES_CLEAR_LUA,
  NOTES_GET_LUA,
  NOTES_PAGE_LUA,
  PAD_APPEND_LUA,
  PAD_CLEAR_LUA,
  PAD_GET_LUA,
} from "./lua/working.ts";
import { asMap, asStrings, decodeReply, num } from "./script-replies.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

const positive = (n: number, what: string): string => {
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidStoreInput(`${what} must be a positive integer`);
  return String(n);
};

/**
 * Working memory on Redis: a notes hash and a scratchpad list per session, each with its own
 * short TTL refreshed on write. Reads that return user text go through scripts replying with one
 * JSON string, because the client would JSON-parse plain string replies ("42" -> 42).
 */
export class RedisWorkingMemoryStore implements WorkingMemoryStore {
  readonly #redis: RedisClient;
  readonly #scripts: ScriptRunner;

  constructor(redis: RedisClient) {
    this.#redis = redis;
    this.#scripts = new ScriptRunner(redis);
  }

  async setNote(ref: SessionRef, key: string, value: string, ttlSeconds: number, caps?: NoteCaps): Promise<NoteRefusal | null> {
    const limits = caps ? [positive(caps.maxNotes, "maxNotes"), positive(caps.maxBytes, "maxBytes")] : ["0", "0"];
    const reply = await this.#scripts.run(
      NOTE_SET_LUA,
      [sessionKeys(ref).notes],
      [key, value, positive(ttlSeconds, "ttlSeconds"), ...limits],
    );
    return reply === "too_many" || reply === "too_large" ? reply : null;
  }

  async getNotesPage(
    ref: SessionRef,
    cursor: string,
    limit: number,
  ): Promise<{ notes: Record<string, string>; nextCursor: string | null }> {
    if (!/^\d{0,20}$/.test(cursor)) throw new InvalidStoreInput("invalid notes cursor");
    const reply = decodeReply(
      await this.#scripts.run(NOTES_PAGE_LUA, [sessionKeys(ref).notes], [cursor === "" ? "0" : cursor, positive(limit, "limit")]),
      "getNotesPage",
    );
    const next = typeof reply.c === "string" ? reply.c : String(num(reply.c));
    return { notes: asMap(reply.n), nextCursor: next === "0" ? null : next };
  }

  async getNotes(ref: SessionRef): Promise<Record<string, string>> {
    return asMap(decodeReply(await this.#scripts.run(NOTES_GET_LUA, [sessionKeys(ref).notes], []), "getNotes"));
  }

  async getNote(ref: SessionRef, key: string): Promise<string | null> {
    const reply = decodeReply(await this.#scripts.run(NOTE_GET_LUA, [sessionKeys(ref).notes], [key]), "getNote");
    return typeof reply.v === "string" ? reply.v : null;
  }

  async deleteNote(ref: SessionRef, key: string): Promise<boolean> {
    return (await this.#redis.hdel(sessionKeys(ref).notes, key)) > 0;
  }

  async clearNotes(ref: SessionRef): Promise<number> {
    return num(await this.#scripts.run(NOTES_CLEAR_LUA, [sessionKeys(ref).notes], []));
  }

  async appendScratch(ref: SessionRef, entry: string, ttlSeconds: number, maxEntries: number): Promise<number> {
    const args = [entry, positive(ttlSeconds, "ttlSeconds"), positive(maxEntries, "maxEntries")];
    return num(await this.#scripts.run(PAD_APPEND_LUA, [sessionKeys(ref).pad], args));
  }

  async getScratch(ref: SessionRef): Promise<string[]> {
    const reply = await this.#scripts.run(PAD_GET_LUA, [sessionKeys(ref).pad], []);
    // cjson writes an empty list as {}; a non-empty one arrives as an array.
    const value: unknown = typeof reply === "string" ? JSON.parse(reply) : reply;
    return asStrings(value);
  }

  async clearScratch(ref: SessionRef): Promise<number> {
    return num(await this.#scripts.run(PAD_CLEAR_LUA, [sessionKeys(ref).pad], []));
  }
}
