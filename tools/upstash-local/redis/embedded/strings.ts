/** @module String and hash counter commands (SET, MGET, INCR family, INCRBYFLOAT, HINCRBY...) with Redis' checks. */
import { ReplyError, type Reply } from "../reply.ts";
import {
  integerReply,
  NOT_AN_INTEGER,
  parseDouble,
  parseInt64,
  parseInteger,
  readHash,
  readString,
  SYNTAX_ERROR,
  typeOfValue,
  type CommandHandler,
  type EngineContext,
} from "./types.ts";

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** SET key value [NX|XX] [GET] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL], options in any case. */
export const set: CommandHandler = (ctx, args) => {
  const key = args[1] ?? "";
  const value = args[2] ?? "";
  let mode: "NX" | "XX" | undefined;
  let get = false;
  let keepTtl = false;
  let expireAt: number | undefined;
  for (let i = 3; i < args.length; i++) {
    const option = (args[i] ?? "").toUpperCase();
    if ((option === "NX" || option === "XX") && mode === undefined) mode = option;
    else if (option === "GET" && !get) get = true;
    else if (option === "KEEPTTL" && !keepTtl && expireAt === undefined) keepTtl = true;
    else if ((option === "EX" || option === "PX" || option === "EXAT" || option === "PXAT") && !keepTtl && expireAt === undefined) {
      const amount = parseInteger(args[++i]);
      if (amount <= 0) throw new ReplyError("ERR invalid expire time in 'set' command");
      const ms = option === "EX" || option === "EXAT" ? amount * 1000 : amount;
      expireAt = option.endsWith("AT") ? ms : Date.now() + ms;
    } else throw new ReplyError(SYNTAX_ERROR);
  }
  const exists = ctx.data.has(key);
  const previous: Reply = get ? (readString(ctx, key) ?? null) : null;
  if ((mode === "NX" && exists) || (mode === "XX" && !exists)) return get ? previous : null;
  ctx.data.set(key, value);
  if (expireAt !== undefined) ctx.expires.set(key, expireAt);
  else if (!keepTtl) ctx.expires.delete(key);
  return get ? previous : "OK";
};

/** MGET returns nil for keys holding other types (ioredis-mock returns the raw value). */
export const mget: CommandHandler = (ctx, args) =>
  args.slice(1).map((key) => {
    const value = ctx.data.get(key);
    if (Buffer.isBuffer(value)) return value;
    return typeOfValue(value) === "string" ? String(value) : null;
  });

function addInteger(current: string | undefined, delta: bigint, notInteger: string): bigint {
  const base = current === undefined ? 0n : parseInt64(current, notInteger);
  const result = base + delta;
  if (result > INT64_MAX || result < INT64_MIN) throw new ReplyError("ERR increment or decrement would overflow");
  return result;
}

function incrementBy(ctx: EngineContext, key: string, delta: bigint): Reply {
  const result = addInteger(readString(ctx, key), delta, NOT_AN_INTEGER);
  ctx.data.set(key, result.toString()); // an existing TTL is kept, as in Redis
  return integerReply(result);
}

export const incr: CommandHandler = (ctx, args) => incrementBy(ctx, args[1] ?? "", 1n);
export const decr: CommandHandler = (ctx, args) => incrementBy(ctx, args[1] ?? "", -1n);
export const incrby: CommandHandler = (ctx, args) => incrementBy(ctx, args[1] ?? "", parseInt64(args[2]));
export const decrby: CommandHandler = (ctx, args) => incrementBy(ctx, args[1] ?? "", -parseInt64(args[2]));

// Redis adds floats as long doubles and prints 17 digits, so 0.1 + 0.2 shows as "0.3";
// rounding a double to 15 significant digits gives the same text in the common cases.
function addFloat(current: string | undefined, increment: string | undefined, notFloat: string): string {
  const base = current === undefined ? 0 : parseDouble(current, notFloat);
  const result = base + parseDouble(increment);
  if (!Number.isFinite(result)) throw new ReplyError("ERR increment would produce NaN or Infinity");
  return String(Number(result.toPrecision(15)));
}

export const incrbyfloat: CommandHandler = (ctx, args) => {
  const key = args[1] ?? "";
  const result = addFloat(readString(ctx, key), args[2], "ERR value is not a valid float");
  ctx.data.set(key, result);
  return result;
};

function hashUpdate(ctx: EngineContext, args: string[], compute: (current: string | undefined) => string): string {
  const key = args[1] ?? "";
  const field = args[2] ?? "";
  const hash = readHash(ctx, key) ?? {};
  const current = Object.hasOwn(hash, field) ? hash[field] : undefined;
  const next = compute(current);
  hash[field] = next;
  ctx.data.set(key, hash);
  return next;
}

export const hincrby: CommandHandler = (ctx, args) => {
  const delta = parseInt64(args[3]);
  const next = hashUpdate(ctx, args, (current) => addInteger(current, delta, "ERR hash value is not an integer").toString());
  return integerReply(BigInt(next));
};

export const hincrbyfloat: CommandHandler = (ctx, args) =>
  hashUpdate(ctx, args, (current) => addFloat(current, args[3], "ERR hash value is not a float"));
