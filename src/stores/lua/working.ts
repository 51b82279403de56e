/** @module The Lua scripts of working memory: a session's notes hash (capped) and its scratchpad list. */
import { LUA_HMAP } from "./common.ts";

/**
 * KEYS: notes. ARGV: field value ttl maxNotes maxBytes ('0': no cap). Sets one note and refreshes
 * the notes TTL, unless the session would hold more than maxNotes notes or maxBytes bytes (keys
 * and values as stored): then nothing changes and the reply says which cap.
 */
export const NOTE_SET_LUA = `
local max_notes, max_bytes = tonumber(ARGV[4] or '0'), tonumber(ARGV[5] or '0')
local exists = redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1
if max_notes > 0 and not exists and redis.call('HLEN', KEYS[1]) >= max_notes then return 'too_many' end
if max_bytes > 0 then
  local bytes = #ARGV[1] + #ARGV[2]
  for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
    if field ~= ARGV[1] then bytes = bytes + #field + redis.call('HSTRLEN', KEYS[1], field) end
  end
  if bytes > max_bytes then return 'too_large' end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 'ok'
`;

/** KEYS: notes. ARGV: cursor limit. One HSCAN page: { c = next cursor, n = { field = value } }. */
export const NOTES_PAGE_LUA = `
local page = redis.call('HSCAN', KEYS[1], ARGV[1], 'COUNT', tonumber(ARGV[2]))
local notes = {}
for i = 1, #page[2], 2 do notes[page[2][i]] = page[2][i + 1] end
return cjson.encode({ c = page[1], n = notes })
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
