/** @module Validates session store inputs and builds the scripts' ARGV: stored messages, window bounds, appends, commits, settings. */
import type { AppendOptions, CompressionCommit, SettingsChange, WindowBound } from "../memory/ports/index.ts";
import { isValidToolCallId } from "../memory/ids.ts";
import type { Fact, SessionRef, StoredMessage, TurnOutcome } from "../memory/model.ts";
import { InvalidStoreInput } from "./errors.ts";
import { assertId, luaKeyParts } from "./keys.ts";
import { KEEP_SETTING } from "./lua/settings.ts";

/**
 * Script ARGV builders. Everything is validated here, before the script runs: a Lua error midway
 * through a script keeps the writes made before it, so bad input must never reach Redis.
 */

export const isCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

export function ttlArg(ttlSeconds: number): string {
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) throw new InvalidStoreInput("ttlSeconds must be a positive integer");
  return String(ttlSeconds);
}

/**
 * A message as stored: a clear header of id, role, tokens and importance first, so scripts read
 * them with a pattern and never decode the rest (see `msg_head` in lua/common.ts); the rest of
 * the entry is opaque to Lua.
 */
export function serializeMessage(m: StoredMessage): string {
  assertId("message id", m.id);
  // HINCRBY needs integers; a fractional count would fail the script after earlier writes
  if (!isCount(m.tokens)) throw new InvalidStoreInput("message tokens must be a non-negative integer");
  if (!Number.isFinite(m.importance) || m.importance < 0 || m.importance > 1)
    throw new InvalidStoreInput("message importance must be within 0..1");
  // the time is read by the append script too (see `msg_ts` in lua/append.ts): a safe integer, right after the header
  if (!isCount(m.ts)) throw new InvalidStoreInput("message ts must be a non-negative integer");
  const { id, role, tokens, importance, ts, ...rest } = m;
  return JSON.stringify({ id, role, tokens, importance, ts, ...rest });
}

/** The three ARGV of a window bound (see WindowBound): allowance, count limit, importance threshold ('' = none). */
export function boundArgs(bound: WindowBound | boolean | undefined): [string, string, string] {
  if (typeof bound !== "object") return ["", "0", "0"];
  if (!isCount(bound.allowance) || !isCount(bound.limit)) throw new InvalidStoreInput("allowance and limit must be non-negative integers");
  if (!Number.isFinite(bound.importanceThreshold)) throw new InvalidStoreInput("importance threshold must be a finite number");
  return [String(bound.allowance), String(bound.limit), String(bound.importanceThreshold)];
}

/** ARGV of the append script (see lua/append.ts). */
export function appendArgs(ref: SessionRef, messages: StoredMessage[], options: AppendOptions, now: number): string[] {
  const ttl = ttlArg(options.ttlSeconds);
  const userId = options.userId === undefined ? "" : assertId("userId", options.userId);
  const facts: readonly Fact[] = options.facts ?? [];
  const recalled = options.recalled ?? [];
  if ((facts.length > 0 || recalled.length > 0) && userId === "")
    throw new InvalidStoreInput("queued facts and recalls need the session's userId");
  const parts = luaKeyParts(ref.tenant);
  const erasedCheck = options.unlessErasedSince !== undefined ? `e${Math.floor(options.unlessErasedSince)}` : "";
  const flags = `${options.withSnapshot ? "s" : ""}${options.replaceSystem ? "r" : ""}${erasedCheck}`;
  const args = [
    String(now),
    ttl,
    userId,
    flags,
    ref.sessionId,
    parts.userPrefix,
    parts.userSuffix,
    String(facts.length),
    String(recalled.length),
  ];
  args.push(...boundArgs(options.withSnapshot));
  for (const f of facts) args.push(assertId("fact id", f.id), JSON.stringify(f));
  for (const id of recalled) args.push(assertId("fact id", id));
  for (const m of messages) args.push(m.id, messageKind(m), String(m.tokens), serializeMessage(m));
  args.push(...turnArgs(options), datedArg(options.dated, messages.length));
  return args;
}

/** Longest session title the append script records. */
export const MAX_TITLE_CHARS = 200;
/** Longest stored title: room for a sealed one (a 200-character title sealed is at most ~1.1k). */
const MAX_STORED_TITLE_CHARS = 1200;

/**
 * What the append script knows of a message: `s` pinned system, `w` window, or, for pairing tool
 * results with calls, `a <call ids>` an assistant message calling tools and `t <call id>` a tool
 * result. Call ids hold no space (see TOOL_CALL_ID_PATTERN), so a space separates them.
 */
function messageKind(m: StoredMessage): string {
  if (m.role === "system") return "s";
  const ids = m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.id) : m.role === "tool" ? [m.tool_call_id ?? ""] : [];
  if (ids.length === 0) return "w";
  if (!ids.every(isValidToolCallId)) throw new InvalidStoreInput("tool call ids must be printable ASCII without space, quote or backslash");
  return `${m.role === "tool" ? "t" : "a"} ${ids.join(" ")}`;
}

/** The append script's very last ARGV: per message '1' when the client gave its ts, else '0' ('' = none did). */
function datedArg(dated: readonly boolean[] | undefined, count: number): string {
  if (dated === undefined || !dated.includes(true)) return "";
  if (dated.length !== count) throw new InvalidStoreInput("dated needs one flag per message");
  return dated.map((d) => (d ? "1" : "0")).join("");
}

/** A retry tag as the proxy makes it: a hash, nothing a client typed. */
const RETRY_TAG = /^[0-9a-f]{16,64}$/;

/** The append script's last four ARGV: turn key, outcome JSON, title and retry tag ('' = none each). */
function turnArgs(options: AppendOptions): [string, string, string, string] {
  const key = options.turn ? assertId("turn key", options.turn.key) : "";
  const outcome = options.turn?.outcome ? serializeOutcome(options.turn.outcome) : "";
  const title = options.title ?? "";
  if (title.length > MAX_STORED_TITLE_CHARS) throw new InvalidStoreInput(`a session title holds at most ${MAX_TITLE_CHARS} characters`);
  const tag = options.retryTag ?? "";
  if (tag !== "" && !RETRY_TAG.test(tag)) throw new InvalidStoreInput("a retry tag is 16-64 lower-case hex digits");
  return [key, outcome, title, tag];
}

export function serializeOutcome(outcome: TurnOutcome): string {
  assertId("reply id", outcome.id);
  const { id, content, tool_calls, finishReason, model } = outcome;
  return JSON.stringify({ id, content, ...(tool_calls ? { tool_calls } : {}), finishReason, model });
}

/** ARGV of the commit script (see lua/commit.ts). */
export function commitArgs(commit: CompressionCommit): string[] {
  const ttl = ttlArg(commit.ttlSeconds);
  if (!isCount(commit.epoch) || !isCount(commit.expectedVersion) || !isCount(commit.archiveLimit)) {
    throw new InvalidStoreInput("epoch, expectedVersion and archiveLimit must be non-negative integers");
  }
  if (!commit.prefixIds.every((id) => typeof id === "string" && id !== ""))
    throw new InvalidStoreInput("prefix ids must be non-empty strings");
  const s = commit.summary;
  if (![s.tokens, s.covered, s.updatedAt, s.lastRatio].every(Number.isFinite))
    throw new InvalidStoreInput("summary numbers must be finite");
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

/** ARGV of the settings script (see lua/settings.ts): a number sets, null deletes, absent keeps. */
export function settingsArgs(ref: SessionRef, change: SettingsChange, defaultTtlSeconds: number, now: number): string[] {
  const ttl = ttlArg(defaultTtlSeconds);
  const parts = luaKeyParts(ref.tenant);
  if (change.ttlSeconds === 0) throw new InvalidStoreInput("ttlSeconds must be positive");
  const values = [change.window, change.maxTokens, change.keep, change.ttlSeconds].map((v) => {
    if (v === undefined) return KEEP_SETTING;
    if (v === null) return "";
    if (!isCount(v)) throw new InvalidStoreInput("settings must be non-negative integers");
    return String(v);
  });
  return [String(now), ttl, ref.sessionId, parts.userPrefix, parts.userSuffix, ...values];
}
