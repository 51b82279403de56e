import { LUA_HMAP } from "./common.ts";

/** KEYS: notes. ARGV: field value ttl. Sets one note and refreshes the notes TTL. */
export const NOTE_SET_LUA = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
`;

/** KEYS: notes. All notes as one JSON object (values stay strings). */
export const NOTES_GET_LUA = `${LUA_HMAP}
return cjson.encode(hmap(KEYS[1]))
`;

/** KEYS: notes. ARGV: field. `{"v": value}` or `{}` when absent. */
export const NOTE_GET_LUA = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v then return cjson.encode({ v = v }) end
return cjson.encode({})
`;

/** KEYS: notes. Deletes the hash, returns how many notes it held. */
export const NOTES_CLEAR_LUA = `
local n = redis.call('HLEN', KEYS[1])
redis.call('DEL', KEYS[1])
return n
`;

/** KEYS: pad. ARGV: entry ttl maxEntries. Appends, caps to the newest maxEntries, returns the length. */
export const PAD_APPEND_LUA = `
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
return redis.call('LLEN', KEYS[1])
`;

/** KEYS: pad. The scratchpad as one JSON array. */
export const PAD_GET_LUA = `
return cjson.encode(redis.call('LRANGE', KEYS[1], 0, -1))
`;

/** KEYS: pad. Deletes the list, returns how many entries it held. */
export const PAD_CLEAR_LUA = `
local n = redis.call('LLEN', KEYS[1])
redis.call('DEL', KEYS[1])
return n
`;
