/** @module PFADD, PFCOUNT and PFMERGE for the embedded engine, with exact member sets instead of estimates. */
import { ReplyError, type Reply } from "../reply.ts";
import { readString, type CommandHandler, type EngineContext } from "./types.ts";

/**
 * PFADD / PFCOUNT / PFMERGE without the estimate: the embedded engine keeps the exact member set
 * in the string value (Redis stores a HyperLogLog as a string too, so TYPE agrees). Counts are
 * exact where Redis' are within about 0.81%; a value that is not one of ours is Redis' own error.
 */
const PREFIX = "HYLL-local:";
const INVALID = "WRONGTYPE Key is not a valid HyperLogLog string value.";

function readMembers(ctx: EngineContext, key: string): Set<string> | null {
  const raw = readString(ctx, key);
  if (raw === undefined) return null;
  if (!raw.startsWith(PREFIX)) throw new ReplyError(INVALID);
  try {
    const members = JSON.parse(raw.slice(PREFIX.length)) as unknown;
    if (!Array.isArray(members)) throw new Error("not a list");
    return new Set(members.map(String));
  } catch {
    throw new ReplyError(INVALID);
  }
}

function writeMembers(ctx: EngineContext, key: string, members: Set<string>): void {
  ctx.data.set(key, PREFIX + JSON.stringify([...members].sort()));
}

/** PFADD key [element ...]: 1 when the count changed (or the key was created), else 0. */
export const pfadd: CommandHandler = (ctx, args): Reply => {
  const key = args[1] ?? "";
  const existing = readMembers(ctx, key);
  const members = existing ?? new Set<string>();
  const before = members.size;
  for (const element of args.slice(2)) members.add(element);
  if (existing !== null && members.size === before) return 0;
  writeMembers(ctx, key, members);
  return 1;
};

/** PFCOUNT key [key ...]: the size of the union. */
export const pfcount: CommandHandler = (ctx, args): Reply => {
  const union = new Set<string>();
  for (const key of args.slice(1)) for (const m of readMembers(ctx, key) ?? []) union.add(m);
  return union.size;
};

/** PFMERGE destkey [sourcekey ...]. */
export const pfmerge: CommandHandler = (ctx, args): Reply => {
  const dest = args[1] ?? "";
  const union = new Set<string>(readMembers(ctx, dest) ?? []);
  for (const key of args.slice(2)) for (const m of readMembers(ctx, key) ?? []) union.add(m);
  writeMembers(ctx, dest, union);
  return "OK";
};
