/** @module Byte-exact string commands (STRLEN, APPEND, GETRANGE, SETRANGE, GET...) where ioredis-mock counts characters. */
import { ReplyError, type Reply } from "../reply.ts";
import { parseInteger, readHash, readString, type CommandHandler, type EngineContext } from "./types.ts";

// Redis strings are byte strings; ioredis-mock works on JS characters. These commands count
// and index bytes, as Redis does.

const MAX_BYTES = 64 * 1024 * 1024;

function readBytes(ctx: EngineContext, key: string): Buffer | undefined {
  if (!ctx.data.has(key)) return undefined;
  const value = ctx.data.get(key);
  if (Buffer.isBuffer(value)) return value;
  const text = readString(ctx, key);
  return text === undefined ? undefined : Buffer.from(text, "utf8");
}

/** Stores text when the bytes are valid UTF-8 (what every other command expects), else bytes. */
function writeBytes(ctx: EngineContext, key: string, bytes: Buffer): void {
  const text = bytes.toString("utf8");
  ctx.data.set(key, Buffer.byteLength(text, "utf8") === bytes.length && Buffer.from(text, "utf8").equals(bytes) ? text : bytes);
}

export const strlen: CommandHandler = (ctx, args) => readBytes(ctx, args[1] ?? "")?.length ?? 0;

export const append: CommandHandler = (ctx, args) => {
  const key = args[1] ?? "";
  const bytes = Buffer.concat([readBytes(ctx, key) ?? Buffer.alloc(0), Buffer.from(args[2] ?? "", "utf8")]);
  writeBytes(ctx, key, bytes);
  return bytes.length;
};

/** GETRANGE / SUBSTR key start end, with negative offsets counted from the end. */
export const getrange: CommandHandler = (ctx, args): Reply => {
  let start = parseInteger(args[2]);
  let end = parseInteger(args[3]);
  const bytes = readBytes(ctx, args[1] ?? "");
  if (bytes === undefined || bytes.length === 0) return "";
  if (start < 0 && end < 0 && start > end) return "";
  if (start < 0) start = Math.max(0, bytes.length + start);
  if (end < 0) end = Math.max(0, bytes.length + end);
  end = Math.min(end, bytes.length - 1);
  if (start > end) return "";
  return Buffer.from(bytes.subarray(start, end + 1));
};

export const setrange: CommandHandler = (ctx, args) => {
  const key = args[1] ?? "";
  const offset = parseInteger(args[2]);
  if (offset < 0) throw new ReplyError("ERR offset is out of range");
  const value = Buffer.from(args[3] ?? "", "utf8");
  const current = readBytes(ctx, key) ?? Buffer.alloc(0);
  if (value.length === 0) return current.length;
  if (offset + value.length > MAX_BYTES) {
    throw new ReplyError("ERR string exceeds maximum allowed size (the embedded engine allows 64 MiB)");
  }
  const next = Buffer.alloc(Math.max(current.length, offset + value.length)); // zero-filled gap
  current.copy(next);
  value.copy(next, offset);
  writeBytes(ctx, key, next);
  return next.length;
};

function takeString(ctx: EngineContext, key: string): Reply {
  if (!ctx.data.has(key)) return null;
  const value = ctx.data.get(key);
  if (Buffer.isBuffer(value)) return value;
  return readString(ctx, key) ?? null;
}

/** GET keeps raw bytes (ioredis-mock turns them into text). */
export const get: CommandHandler = (ctx, args) => takeString(ctx, args[1] ?? "");

export const getdel: CommandHandler = (ctx, args) => {
  const old = takeString(ctx, args[1] ?? "");
  ctx.data.delete(args[1] ?? "");
  return old;
};

/** GETSET also drops the key's TTL, like SET. */
export const getset: CommandHandler = (ctx, args) => {
  const key = args[1] ?? "";
  const old = takeString(ctx, key);
  ctx.data.set(key, args[2] ?? "");
  ctx.expires.delete(key);
  return old;
};

export const hstrlen: CommandHandler = (ctx, args) => {
  const hash = readHash(ctx, args[1] ?? "");
  const field = args[2] ?? "";
  return hash !== undefined && Object.hasOwn(hash, field) ? Buffer.byteLength(hash[field] ?? "", "utf8") : 0;
};

/** GETEX key [EX s | PX ms | EXAT s | PXAT ms | PERSIST], options in any case. */
export const getex: CommandHandler = (ctx, args) => {
  const key = args[1] ?? "";
  const option = (args[2] ?? "").toUpperCase();
  let expireAt: number | undefined;
  if (["EX", "PX", "EXAT", "PXAT"].includes(option) && args.length === 4) {
    const amount = parseInteger(args[3]);
    if (amount <= 0) throw new ReplyError("ERR invalid expire time in 'getex' command");
    const ms = option === "EX" || option === "EXAT" ? amount * 1000 : amount;
    expireAt = option.endsWith("AT") ? ms : Date.now() + ms;
  } else if (!(args.length === 2 || (option === "PERSIST" && args.length === 3))) {
    throw new ReplyError("ERR syntax error");
  }
  const value = takeString(ctx, key);
  if (value === null) return null;
  if (expireAt !== undefined) {
    if (expireAt <= Date.now()) ctx.data.delete(key);
    else ctx.expires.set(key, expireAt);
  } else if (option === "PERSIST") ctx.expires.delete(key);
  return value;
};
