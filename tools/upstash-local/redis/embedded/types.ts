/** @module Shared types, error texts and key-type helpers of the embedded Redis engine's commands. */
import type { MockExpiries, MockKeyspace } from "ioredis-mock";
import { ReplyError, type Reply } from "../reply.ts";

/** What command implementations work on: ioredis-mock's keyspace and expiry table. */
export interface EngineContext {
  readonly data: MockKeyspace;
  readonly expires: MockExpiries;
}

/** Runs one command; `args[0]` is the name. Throws `ReplyError` for Redis errors. */
export type CommandHandler = (ctx: EngineContext, args: string[]) => Reply;

export type KeyType = "none" | "string" | "hash" | "list" | "set" | "zset";

/** How ioredis-mock stores one sorted-set member. */
export interface ZEntry {
  score: number;
  value: string;
}

export type Hash = Record<string, string>;

export const WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
export const NOT_AN_INTEGER = "ERR value is not an integer or out of range";
export const NOT_A_FLOAT = "ERR value is not a valid float";
export const SYNTAX_ERROR = "ERR syntax error";

export function typeOfValue(value: unknown): KeyType {
  if (value === undefined || value === null) return "none";
  if (typeof value === "string" || Buffer.isBuffer(value)) return "string";
  if (value instanceof Map) return "zset";
  if (value instanceof Set) return "set";
  if (Array.isArray(value)) return "list";
  return typeof value === "object" ? "hash" : "string";
}

export function keyType(ctx: EngineContext, key: string): KeyType {
  return ctx.data.has(key) ? typeOfValue(ctx.data.get(key)) : "none";
}

/** The string at `key`, undefined when missing; WRONGTYPE for other types. */
export function readString(ctx: EngineContext, key: string): string | undefined {
  if (!ctx.data.has(key)) return undefined;
  const value = ctx.data.get(key);
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  throw new ReplyError(WRONGTYPE);
}

export function readHash(ctx: EngineContext, key: string): Hash | undefined {
  if (!ctx.data.has(key)) return undefined;
  const value = ctx.data.get(key);
  if (typeOfValue(value) !== "hash") throw new ReplyError(WRONGTYPE);
  return value as Hash;
}

export function readZset(ctx: EngineContext, key: string): Map<string, ZEntry> | undefined {
  if (!ctx.data.has(key)) return undefined;
  const value = ctx.data.get(key);
  if (!(value instanceof Map)) throw new ReplyError(WRONGTYPE);
  return value as Map<string, ZEntry>;
}

/** Redis integers: optional minus, no leading zeros or spaces, within 64 bits. */
export function parseInt64(text: string | undefined, message = NOT_AN_INTEGER): bigint {
  if (text === undefined || !/^(?:0|-?[1-9]\d{0,18})$/.test(text)) throw new ReplyError(message);
  const value = BigInt(text);
  if (value > 9223372036854775807n || value < -9223372036854775808n) throw new ReplyError(message);
  return value;
}

export function parseInteger(text: string | undefined, message = NOT_AN_INTEGER): number {
  return Number(parseInt64(text, message));
}

/** Redis doubles: decimal or exponent notation, or inf / +inf / -inf; never NaN. */
export function parseDouble(text: string | undefined, message = NOT_A_FLOAT): number {
  if (text === undefined) throw new ReplyError(message);
  if (/^[+-]?inf(?:inity)?$/i.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) throw new ReplyError(message);
  return Number(text);
}

/** How Redis prints a double in replies such as ZSCORE. */
export function formatDouble(value: number): string {
  if (value === Infinity) return "inf";
  if (value === -Infinity) return "-inf";
  return String(value);
}

/** A JS number as a Redis integer reply; bigint keeps precision past 2^53. */
export function integerReply(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}
