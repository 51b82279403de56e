import type { AppendOptions, CompressionCommit } from "../memory/ports.ts";
import type { SessionRef, SessionSettings, StoredMessage } from "../memory/types.ts";
import { InvalidStoreInput } from "./errors.ts";
import { assertId, luaKeyParts } from "./keys.ts";

/**
 * Script ARGV builders. Everything is validated here, before the script runs: a Lua error midway
 * through a script keeps the writes made before it, so bad input must never reach Redis.
 */

export const isCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

export function ttlArg(ttlSeconds: number): string {
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) throw new InvalidStoreInput("ttlSeconds must be a positive integer");
  return String(ttlSeconds);
}

/** ARGV of the append script (see lua/append.ts). */
export function appendArgs(ref: SessionRef, messages: StoredMessage[], options: AppendOptions, now: number): string[] {
  const ttl = ttlArg(options.ttlSeconds);
  const userId = options.userId === undefined ? "" : assertId("userId", options.userId);
  const parts = luaKeyParts(ref.tenant);
  const flags = `${options.withSnapshot ? "s" : ""}${options.replaceSystem ? "r" : ""}`;
  const args = [String(now), ttl, userId, flags, ref.sessionId, parts.userPrefix, parts.userSuffix];
  for (const m of messages) {
    if (typeof m.id !== "string" || m.id === "") throw new InvalidStoreInput("message id is required");
    // HINCRBY needs integers; a fractional count would fail the script after earlier writes
    if (!isCount(m.tokens)) throw new InvalidStoreInput("message tokens must be a non-negative integer");
    args.push(m.id, m.role === "system" ? "s" : "w", String(m.tokens), JSON.stringify(m));
  }
  return args;
}

/** ARGV of the commit script (see lua/commit.ts). */
export function commitArgs(commit: CompressionCommit): string[] {
  const ttl = ttlArg(commit.ttlSeconds);
  if (!isCount(commit.epoch) || !isCount(commit.expectedVersion) || !isCount(commit.archiveLimit)) {
    throw new InvalidStoreInput("epoch, expectedVersion and archiveLimit must be non-negative integers");
  }
  if (!commit.prefixIds.every((id) => typeof id === "string" && id !== "")) throw new InvalidStoreInput("prefix ids must be non-empty strings");
  const s = commit.summary;
  if (![s.tokens, s.covered, s.updatedAt, s.lastRatio].every(Number.isFinite)) throw new InvalidStoreInput("summary numbers must be finite");
  return [
    String(commit.epoch),
    String(commit.expectedVersion),
    String(commit.archiveLimit),
    ttl,
    s.text,
    String(s.tokens),
    String(s.covered),
    s.method,
    String(s.updatedAt),
    String(s.lastRatio),
    ...commit.prefixIds,
  ];
}

/** ARGV of the settings script (see lua/settings.ts); an absent setting is sent as '' (delete). */
export function settingsArgs(ref: SessionRef, settings: SessionSettings, ttlSeconds: number, now: number): string[] {
  const ttl = ttlArg(ttlSeconds);
  const parts = luaKeyParts(ref.tenant);
  const values = [settings.window, settings.maxTokens, settings.keep, settings.ttlSeconds].map((v) => {
    if (v === undefined || v === null) return "";
    if (!Number.isFinite(v)) throw new InvalidStoreInput("settings must be finite numbers");
    return String(v);
  });
  return [String(now), ttl, ref.sessionId, parts.userPrefix, parts.userSuffix, ...values];
}
