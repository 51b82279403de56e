/** @module EXPIRE family and TTL/PTTL commands with Redis 7 NX/XX/GT/LT options for the embedded engine. */
import { ReplyError } from "../reply.ts";
import { parseInteger, type CommandHandler } from "./types.ts";

type Unit = { ms: number; absolute: boolean };

/**
 * EXPIRE / PEXPIRE / EXPIREAT / PEXPIREAT with the Redis 7 NX|XX|GT|LT options, which
 * ioredis-mock ignores. A time in the past deletes the key, as Redis does.
 */
function expireCommand(unit: Unit): CommandHandler {
  return (ctx, args) => {
    const name = (args[0] ?? "").toLowerCase();
    const key = args[1] ?? "";
    const amount = parseInteger(args[2]);
    const flags = new Set<string>();
    for (const raw of args.slice(3)) {
      const flag = raw.toUpperCase();
      if (flag !== "NX" && flag !== "XX" && flag !== "GT" && flag !== "LT") throw new ReplyError(`ERR Unsupported option ${raw}`);
      flags.add(flag);
    }
    if (flags.has("NX") && flags.size > 1) {
      throw new ReplyError("ERR NX and XX, GT or LT options at the same time are not compatible");
    }
    if (flags.has("GT") && flags.has("LT")) throw new ReplyError("ERR GT and LT options at the same time are not compatible");
    const at = (unit.absolute ? 0 : Date.now()) + amount * unit.ms;
    if (!Number.isSafeInteger(at)) throw new ReplyError(`ERR invalid expire time in '${name}' command`);
    if (!ctx.data.has(key)) return 0;

    const current = ctx.expires.get(key); // undefined means no expiry, i.e. infinite
    if (flags.has("NX") && current !== undefined) return 0;
    if (flags.has("XX") && current === undefined) return 0;
    if (flags.has("GT") && (current === undefined || at <= current)) return 0;
    if (flags.has("LT") && current !== undefined && at >= current) return 0;
    if (at <= Date.now()) ctx.data.delete(key);
    else ctx.expires.set(key, at);
    return 1;
  };
}

export const expire = expireCommand({ ms: 1000, absolute: false });
export const pexpire = expireCommand({ ms: 1, absolute: false });
export const expireat = expireCommand({ ms: 1000, absolute: true });
export const pexpireat = expireCommand({ ms: 1, absolute: true });

/** TTL / PTTL: -2 for a missing key, -1 without expiry; TTL rounds to the nearest second as Redis does. */
function ttlCommand(unitMs: number): CommandHandler {
  return (ctx, args) => {
    const key = args[1] ?? "";
    if (!ctx.data.has(key)) return -2;
    const at = ctx.expires.get(key);
    if (at === undefined) return -1;
    const left = Math.max(0, at - Date.now());
    return unitMs === 1 ? left : Math.floor((left + 500) / 1000);
  };
}

export const ttl = ttlCommand(1000);
export const pttl = ttlCommand(1);
