/** @module Sorted-set commands (ZADD, ZINCRBY, ZSCORE, ZCOUNT, ZREMRANGEBY...) with Redis' options and checks. */
import { ReplyError, type Reply } from "../reply.ts";
import { inScoreRange, parseScoreBound } from "./zbounds.ts";
import { formatDouble, parseDouble, readZset, SYNTAX_ERROR, type CommandHandler, type EngineContext, type ZEntry } from "./types.ts";

interface AddFlags {
  nx: boolean;
  xx: boolean;
  gt: boolean;
  lt: boolean;
  ch: boolean;
  incr: boolean;
}

/** Adds or updates members; returns [added, changed, last score or null when skipped]. */
function addMembers(ctx: EngineContext, key: string, pairs: [number, string][], flags: AddFlags): [number, number, number | null] {
  const zset = readZset(ctx, key) ?? new Map<string, ZEntry>();
  let added = 0;
  let changed = 0;
  let last: number | null = null;
  for (const [score, member] of pairs) {
    const existing = zset.get(member);
    last = null;
    if (existing === undefined) {
      if (flags.xx) continue;
      zset.set(member, { score, value: member });
      added++;
      last = score;
      continue;
    }
    if (flags.nx) continue;
    const next = flags.incr ? existing.score + score : score;
    if (Number.isNaN(next)) throw new ReplyError("ERR resulting score is not a number (NaN)");
    if ((flags.gt && next <= existing.score) || (flags.lt && next >= existing.score)) continue;
    if (next !== existing.score) {
      zset.set(member, { score: next, value: member });
      changed++;
    }
    last = next;
  }
  if (zset.size > 0) ctx.data.set(key, zset);
  return [added, changed, last];
}

/** ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...], options in any case. */
export const zadd: CommandHandler = (ctx, args) => {
  const flags: AddFlags = { nx: false, xx: false, gt: false, lt: false, ch: false, incr: false };
  let i = 2;
  for (; i < args.length; i++) {
    const option = (args[i] ?? "").toLowerCase();
    if (!Object.hasOwn(flags, option)) break;
    flags[option as keyof AddFlags] = true;
  }
  const rest = args.slice(i);
  if (rest.length === 0 || rest.length % 2 !== 0) throw new ReplyError(SYNTAX_ERROR);
  if (flags.nx && flags.xx) throw new ReplyError("ERR XX and NX options at the same time are not compatible");
  if ((flags.gt && flags.lt) || (flags.nx && (flags.gt || flags.lt))) {
    throw new ReplyError("ERR GT, LT, and/or NX options at the same time are not compatible");
  }
  if (flags.incr && rest.length > 2) throw new ReplyError("ERR INCR option supports a single increment-element pair");
  const pairs: [number, string][] = [];
  for (let j = 0; j < rest.length; j += 2) pairs.push([parseDouble(rest[j]), rest[j + 1] ?? ""]);
  const [added, changed, last] = addMembers(ctx, args[1] ?? "", pairs, flags);
  if (flags.incr) return last === null ? null : formatDouble(last);
  return flags.ch ? added + changed : added;
};

export const zincrby: CommandHandler = (ctx, args) => {
  const flags: AddFlags = { nx: false, xx: false, gt: false, lt: false, ch: false, incr: true };
  const [, , last] = addMembers(ctx, args[1] ?? "", [[parseDouble(args[2]), args[3] ?? ""]], flags);
  return last === null ? null : formatDouble(last);
};

const score = (ctx: EngineContext, key: string, member: string): Reply => {
  const entry = readZset(ctx, key)?.get(member);
  return entry === undefined ? null : formatDouble(entry.score);
};

export const zscore: CommandHandler = (ctx, args) => score(ctx, args[1] ?? "", args[2] ?? "");
export const zmscore: CommandHandler = (ctx, args) => args.slice(2).map((member) => score(ctx, args[1] ?? "", member));

export const zcount: CommandHandler = (ctx, args) => {
  const min = parseScoreBound(args[2]);
  const max = parseScoreBound(args[3]);
  let count = 0;
  for (const entry of readZset(ctx, args[1] ?? "")?.values() ?? []) if (inScoreRange(entry.score, min, max)) count++;
  return count;
};

export const zremrangebyscore: CommandHandler = (ctx, args) => {
  const key = args[1] ?? "";
  const min = parseScoreBound(args[2]);
  const max = parseScoreBound(args[3]);
  const zset = readZset(ctx, key);
  if (zset === undefined) return 0;
  let removed = 0;
  for (const [member, entry] of zset) {
    if (inScoreRange(entry.score, min, max)) {
      zset.delete(member);
      removed++;
    }
  }
  if (zset.size === 0) ctx.data.delete(key);
  else ctx.data.set(key, zset);
  return removed;
};
