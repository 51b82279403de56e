/**
 * The content index: one hash per user with
 * - `c:<content id>` -> the id of the fact that last recorded that content;
 * - `i:<fact id>` -> `<content id>|<version>|<importance>|<createdAt>|<updatedAt>` of that fact as
 *   its last write left it;
 * - `complete` once it covers every fact the user had when it was built, and `build` (the fact
 *   listing's cursor) while it is being built.
 * Fact ids and content ids are validated, and the numbers formatted, before they get here.
 */

/** Lua: the content id of an `i:` entry (the part before the first `|`). */
const LUA_CONTENT_OF = `
local function content_of(entry)
  if not entry then return nil end
  return string.match(entry, '^[^|]+')
end
`;

/**
 * KEYS: index. ARGV: content ids. `{"complete": 0|1, "cursor": "...", "holders": [...], "entries":
 * [...], "taken": [0|1, ...]}`: per content id the fact recorded as holding it and that fact's
 * entry (both "" when none, or when the fact has moved on to another content), and whether a fact
 * uses the content id as its own id; `cursor` is where an unfinished build goes on ("" to start).
 */
export const CONTENT_LOOKUP_LUA = `${LUA_CONTENT_OF}
local holders, entries, taken = {}, {}, {}
for i = 1, #ARGV do
  local c = ARGV[i]
  local holder = redis.call('HGET', KEYS[1], 'c:' .. c)
  local entry = holder and redis.call('HGET', KEYS[1], 'i:' .. holder)
  if holder and entry and content_of(entry) == c then
    holders[i], entries[i] = holder, entry
  else
    holders[i], entries[i] = '', ''
  end
  taken[i] = redis.call('HEXISTS', KEYS[1], 'i:' .. c)
end
local complete = redis.call('HEXISTS', KEYS[1], 'complete')
local cursor = redis.call('HGET', KEYS[1], 'build') or ''
return cjson.encode({ complete = complete, cursor = cursor, holders = holders, entries = entries, taken = taken })
`;

/**
 * KEYS: index. ARGV: build state ("" to leave it, "complete", or "cursor:<where the build goes
 * on>"), then fact id / entry pairs. Records each fact under its content id (an earlier content
 * id of the same fact keeps pointing at it: lookups check the entry). Returns how many it recorded.
 */
export const CONTENT_RECORD_LUA = `${LUA_CONTENT_OF}
local n = 0
for i = 2, #ARGV - 1, 2 do
  local id, entry = ARGV[i], ARGV[i + 1]
  redis.call('HSET', KEYS[1], 'c:' .. content_of(entry), id, 'i:' .. id, entry)
  n = n + 1
end
if ARGV[1] == 'complete' then
  redis.call('HSET', KEYS[1], 'complete', '1')
  redis.call('HDEL', KEYS[1], 'build')
elseif string.sub(ARGV[1], 1, 7) == 'cursor:' then
  redis.call('HSET', KEYS[1], 'build', string.sub(ARGV[1], 8))
end
return n
`;

/**
 * KEYS: index. ARGV: fact id / version / updatedAt triples. Moves the version and `updatedAt` of
 * facts the index knows (a refresh about to be written); returns how many it knew.
 */
export const CONTENT_REFRESH_LUA = `
local n = 0
for i = 1, #ARGV - 2, 3 do
  local key = 'i:' .. ARGV[i]
  local entry = redis.call('HGET', KEYS[1], key)
  if entry then
    local c, _, imp, created = string.match(entry, '^([^|]+)|([^|]*)|([^|]*)|([^|]*)')
    if c then
      redis.call('HSET', KEYS[1], key, c .. '|' .. ARGV[i + 1] .. '|' .. imp .. '|' .. created .. '|' .. ARGV[i + 2])
      n = n + 1
    end
  end
end
return n
`;

/** KEYS: index. ARGV: fact ids. Forgets each deleted fact and its content id; returns how many it knew. */
export const CONTENT_FORGET_LUA = `${LUA_CONTENT_OF}
local n = 0
for i = 1, #ARGV do
  local id = ARGV[i]
  local c = content_of(redis.call('HGET', KEYS[1], 'i:' .. id))
  if c then
    if redis.call('HGET', KEYS[1], 'c:' .. c) == id then redis.call('HDEL', KEYS[1], 'c:' .. c) end
    redis.call('HDEL', KEYS[1], 'i:' .. id)
    n = n + 1
  end
end
return n
`;

/** KEYS: index. Drops it (the user's facts were all deleted); returns 1 if it existed. */
export const CONTENT_CLEAR_LUA = `
return redis.call('DEL', KEYS[1])
`;
