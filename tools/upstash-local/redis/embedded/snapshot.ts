/** @module Snapshot format of the embedded Redis (`redis.json`): taking one from the keyspace and restoring it. */
import { typeOfValue, type EngineContext, type ZEntry } from "./types.ts";

/** One key in `redis.json`. Expiry is an absolute epoch-ms time, so it survives restarts. */
export type SnapshotEntry = { key: string; expiresAt?: number } & (
  | { type: "string"; value: string }
  | { type: "bytes"; value: string } // a string that is not valid UTF-8, base64-encoded
  | { type: "hash"; value: [string, string][] }
  | { type: "list"; value: string[] }
  | { type: "set"; value: string[] }
  | { type: "zset"; value: [string, number | "inf" | "-inf"][] }
);

export interface Snapshot {
  version: 1;
  savedAt: number;
  entries: SnapshotEntry[];
}

const asText = (v: unknown): string => (Buffer.isBuffer(v) ? v.toString("utf8") : String(v));

/** One live key as a snapshot entry; null when it does not exist (or has expired). */
export function entryOf(ctx: EngineContext, key: string): SnapshotEntry | null {
  if (!ctx.data.has(key)) return null;
  const value = ctx.data.get(key);
  const expiresAt = ctx.expires.get(key);
  const base = expiresAt === undefined ? { key } : { key, expiresAt };
  const type = typeOfValue(value);
  if (Buffer.isBuffer(value)) return { ...base, type: "bytes", value: value.toString("base64") };
  if (type === "string") return { ...base, type, value: asText(value) };
  if (type === "list" && Array.isArray(value)) return { ...base, type, value: value.map(asText) };
  if (type === "set" && value instanceof Set) return { ...base, type, value: [...value].map(asText) };
  if (type === "zset" && value instanceof Map) {
    const members = [...(value as Map<string, ZEntry>).values()].map(({ value: member, score }): [string, number | "inf" | "-inf"] => [
      member,
      score === Infinity ? "inf" : score === -Infinity ? "-inf" : score,
    ]);
    return { ...base, type, value: members };
  }
  if (type === "hash" && typeof value === "object" && value !== null) {
    return { ...base, type, value: Object.entries(value).map(([f, v]): [string, string] => [f, asText(v)]) };
  }
  return null;
}

/** Reads every live key of the keyspace into a JSON-ready snapshot. */
export function takeSnapshot(ctx: EngineContext): Snapshot {
  const entries: SnapshotEntry[] = [];
  for (const key of ctx.data.keys()) {
    const entry = entryOf(ctx, key);
    if (entry) entries.push(entry);
  }
  return { version: 1, savedAt: Date.now(), entries };
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
const isPairs = (v: unknown, second: (x: unknown) => boolean): v is [string, unknown][] =>
  Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === "string" && second(p[1]));

function decodeValue(type: unknown, value: unknown): unknown {
  if (type === "string" && typeof value === "string") return value;
  if (type === "bytes" && typeof value === "string") return Buffer.from(value, "base64");
  if (type === "list" && isStringArray(value)) return value;
  if (type === "set" && isStringArray(value)) return new Set(value);
  if (type === "hash" && isPairs(value, (x) => typeof x === "string")) return Object.fromEntries(value);
  if (type === "zset" && isPairs(value, (x) => typeof x === "number" || x === "inf" || x === "-inf")) {
    return new Map(
      value.map(([member, score]) => [
        member,
        { value: member, score: score === "inf" ? Infinity : score === "-inf" ? -Infinity : Number(score) },
      ]),
    );
  }
  return undefined;
}

/**
 * Loads a parsed `redis.json` into the keyspace. Keys that expired while the emulator was down
 * are skipped. Throws when the file is not a snapshot, so data is never silently dropped.
 */
export function restoreSnapshot(ctx: EngineContext, raw: unknown, now = Date.now()): number {
  if (typeof raw !== "object" || raw === null || !("entries" in raw) || !Array.isArray(raw.entries)) {
    throw new Error("not an upstash-local Redis snapshot (missing entries array)");
  }
  let restored = 0;
  for (const entry of raw.entries as unknown[]) {
    if (typeof entry !== "object" || entry === null) continue;
    const { key, type, value, expiresAt } = entry as Record<string, unknown>;
    if (typeof key !== "string") continue;
    if (typeof expiresAt === "number" && expiresAt <= now) continue;
    const decoded = decodeValue(type, value);
    if (decoded === undefined) throw new Error(`snapshot entry for key "${key}" has an invalid ${String(type)} value`);
    ctx.data.set(key, decoded);
    if (typeof expiresAt === "number") ctx.expires.set(key, expiresAt);
    restored++;
  }
  return restored;
}

/**
 * Applies the change log written after a snapshot, oldest first: a key's record replaces it, a
 * `{key, deleted: true}` record removes it, a record that has expired meanwhile removes it too.
 */
export function applyChanges(ctx: EngineContext, changes: readonly unknown[], now = Date.now()): void {
  for (const change of changes) {
    if (typeof change !== "object" || change === null) continue;
    const { key, type, value, expiresAt, deleted } = change as Record<string, unknown>;
    if (typeof key !== "string") continue;
    ctx.data.delete(key);
    ctx.expires.delete(key);
    if (deleted === true || (typeof expiresAt === "number" && expiresAt <= now)) continue;
    const decoded = decodeValue(type, value);
    if (decoded === undefined) throw new Error(`logged record for key "${key}" has an invalid ${String(type)} value`);
    ctx.data.set(key, decoded);
    if (typeof expiresAt === "number") ctx.expires.set(key, expiresAt);
  }
}
