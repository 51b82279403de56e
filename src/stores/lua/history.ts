/** @module The Lua script that reads a session's summary and one page of its archived originals in one step. */
import { LUA_HMAP } from "./common.ts";

/**
 * The summary plus one page of archived originals ("decompress"), atomically.
 *
 * KEYS: sum arc
 * ARGV: offset limit
 */
export const HISTORY_LUA = `${LUA_HMAP}
local off, lim = tonumber(ARGV[1]), tonumber(ARGV[2])
local arc = {}
if lim > 0 then arc = redis.call('LRANGE', KEYS[2], off, off + lim - 1) end
return cjson.encode({ sum = hmap(KEYS[1]), arc = arc, total = redis.call('LLEN', KEYS[2]) })
`;
