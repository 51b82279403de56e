/** @module LSET with Redis' range check for the embedded engine. */
import { ReplyError } from "../reply.ts";
import { parseInteger, WRONGTYPE, type CommandHandler } from "./types.ts";

/** LSET with Redis' range check (ioredis-mock writes past the end). */
export const lset: CommandHandler = (ctx, args) => {
  const key = args[1] ?? "";
  const list = ctx.data.get(key);
  if (!Array.isArray(list)) throw new ReplyError(list === undefined ? "ERR no such key" : WRONGTYPE);
  const raw = parseInteger(args[2]);
  const index = raw < 0 ? list.length + raw : raw;
  if (index < 0 || index >= list.length) throw new ReplyError("ERR index out of range");
  list[index] = args[3] ?? "";
  ctx.data.set(key, list);
  return "OK";
};
