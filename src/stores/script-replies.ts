/** @module Decoders of the Lua scripts' JSON replies into snapshots, messages, summaries, settings, totals and session lists. */
import type { JsonObject } from "../memory/model.ts";
import type { SessionListEntry } from "../memory/ports/index.ts";
import type {
  SessionMeta,
  SessionSettings,
  SessionSnapshot,
  SessionTotals,
  StoredMessage,
  Summary,
  ToolCall,
  TurnOutcome,
} from "../memory/model.ts";
import { UnexpectedReply } from "./errors.ts";
import { SETTING_FIELDS } from "./lua/settings.ts";

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A script reply is one cjson string. The client JSON-parses it by default; with
 * `automaticDeserialization: false` it is still a string. Accept both.
 */
export function decodeReply(reply: unknown, what: string): JsonObject {
  let value = reply;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw new UnexpectedReply(what);
    }
  }
  if (!isObject(value)) throw new UnexpectedReply(what);
  return value;
}

/** cjson writes an empty Lua table as `{}`: read that as an empty list. */
export function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}

export function asStrings(value: unknown): string[] {
  return asList(value).filter((v): v is string => typeof v === "string");
}

/** A number from a reply field (hash values arrive as strings); `fallback` when absent or invalid. */
export function num(value: unknown, fallback = 0): number {
  const n = typeof value === "number" ? value : typeof value === "string" && value !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : fallback;
}

/** Stored message JSON -> message. Entries are written by this adapter only. */
export function parseMessages(value: unknown, what: string): StoredMessage[] {
  return asList(value).map((entry) => {
    const parsed: unknown = typeof entry === "string" ? JSON.parse(entry) : entry;
    if (!isObject(parsed) || typeof parsed.id !== "string") throw new UnexpectedReply(what);
    return parsed as unknown as StoredMessage;
  });
}

export function parseSummary(map: Record<string, string>): Summary | null {
  if (map.version === undefined) return null;
  return {
    text: map.text ?? "",
    tokens: num(map.tokens),
    version: num(map.version),
    covered: num(map.covered),
    method: map.method === "llm" ? "llm" : "extractive",
    updatedAt: num(map.updatedAt),
    lastRatio: num(map.lastRatio),
  };
}

export function parseSettings(map: Record<string, string>): SessionSettings {
  const settings: SessionSettings = {};
  for (const field of SETTING_FIELDS) {
    const raw = map[field];
    if (raw === undefined) continue;
    const value = num(raw, NaN);
    if (Number.isNaN(value)) continue;
    const name = field.slice("set:".length) as keyof SessionSettings;
    settings[name] = value;
  }
  return settings;
}

function parseMeta(map: Record<string, string>): SessionMeta | null {
  if (map.created === undefined) return null;
  return {
    userId: map.userId,
    createdAt: num(map.created),
    updatedAt: num(map.updated),
    epoch: num(map.epoch),
    summaryFailures: num(map.sumfail),
  };
}

/**
 * The `snapshot(...)` table of the read and append scripts. Its `wcount`, `wstart` and `wimp`
 * (whole-window count, index of the first message returned, importance sum) are absent from an
 * export, whose window is whole.
 */
export function parseSnapshot(value: unknown): SessionSnapshot {
  const obj = isObject(value) ? value : {};
  const metaMap = asMap(obj.meta);
  const meta = parseMeta(metaMap);
  const snapshot: SessionSnapshot = {
    exists: meta !== null,
    system: parseMessages(obj.sys, "read"),
    window: parseMessages(obj.win, "read"),
    windowTokens: num(metaMap.wtok),
    summary: parseSummary(asMap(obj.sum)),
    meta,
    settings: parseSettings(metaMap),
  };
  // only a partial window carries them: a whole one has them in its messages
  if (obj.wcount !== undefined && (num(obj.wcount) !== snapshot.window.length || num(obj.wstart) !== 0)) {
    snapshot.windowCount = num(obj.wcount);
    snapshot.windowStart = num(obj.wstart);
    snapshot.windowImportanceMicros = num(obj.wimp);
  }
  return snapshot;
}

/** The totals every append reply carries (see lua/append.ts). */
export function parseTotals(reply: JsonObject): SessionTotals {
  return {
    systemCount: num(reply.scount),
    systemTokens: num(reply.stok),
    systemImportanceMicros: num(reply.simp),
    windowCount: num(reply.wcount),
    windowTokens: num(reply.wtok),
    windowImportanceMicros: num(reply.wimp),
  };
}

/** A recorded turn outcome (JSON written by `serializeOutcome`), or null when there is none. */
export function parseOutcome(value: unknown): TurnOutcome | null {
  if (typeof value !== "string" || value === "") return null;
  const parsed = decodeReply(value, "turn outcome");
  if (typeof parsed.id !== "string" || typeof parsed.content !== "string") throw new UnexpectedReply("turn outcome");
  const outcome: TurnOutcome = {
    id: parsed.id,
    content: parsed.content,
    finishReason: typeof parsed.finishReason === "string" ? parsed.finishReason : null,
    model: typeof parsed.model === "string" ? parsed.model : "",
  };
  if (Array.isArray(parsed.tool_calls)) outcome.tool_calls = parsed.tool_calls as ToolCall[];
  return outcome;
}

/** The entries of the user-sessions script: `{id, created, updated, count, title}` each. */
export function parseSessionList(value: unknown): SessionListEntry[] {
  return asList(value).map((raw) => {
    const e = decodeReply(raw, "userSessions");
    if (typeof e.id !== "string") throw new UnexpectedReply("userSessions");
    return {
      sessionId: e.id,
      createdAt: num(e.created),
      updatedAt: num(e.updated),
      messages: num(e.count),
      title: typeof e.title === "string" && e.title !== "" ? e.title : null,
    };
  });
}
