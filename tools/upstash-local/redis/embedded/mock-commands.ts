/** @module Wraps ioredis-mock's own command implementations with small reply and TTL fixes. */
import type { Reply } from "../reply.ts";
import { runChunked } from "./chunking.ts";
import { fromMock } from "./convert.ts";
import type { MockStore } from "./mock.ts";
import type { CommandHandler } from "./types.ts";

/** What these answer when their source key is missing, before looking at the destination. */
const EMPTY_SOURCE: ReadonlyMap<string, Reply> = new Map<string, Reply>([
  ["lmove", null],
  ["rpoplpush", null],
  ["smove", 0],
  ["linsert", 0], // ioredis-mock answers -1 (pivot not found) for a missing list
]);
/** Their destination is replaced, so it loses any TTL (ioredis-mock keeps it). */
const STORE_COMMANDS = new Set(["sdiffstore", "sinterstore", "sunionstore", "zinterstore"]);
/** Commands that return doubles as JS numbers where Redis sends bulk strings. */
const FLOAT_REPLIES = new Set(["zpopmin", "zpopmax"]);

/** A handler running ioredis-mock's own implementation of `name`, with the small fixes above. */
export function mockHandler(store: MockStore, name: string): CommandHandler {
  const empty = EMPTY_SOURCE.get(name);
  const floats = FLOAT_REPLIES.has(name);
  const stores = STORE_COMMANDS.has(name);
  return (ctx, args) => {
    if (empty !== undefined && !ctx.data.has(args[1] ?? "")) return empty;
    const reply = runChunked(name, args, (slice) => fromMock(store.call(name, slice.slice(1)), floats));
    if (stores) ctx.expires.delete(args[1] ?? "");
    return reply;
  };
}
