/**
 * The content index: one hash per user with `c:<content id>` -> fact id, `i:<fact id>` -> content
 * id, `complete` once it covers every fact the user had when it was built, and `build` (the fact
 * listing's cursor) while it is being built. Fact ids and content ids are validated before they
 * get here.
 */

/**
 * KEYS: index. ARGV: content ids. `{"complete": 0|1, "cursor": "...", "holders": [...], "taken":
 * [0|1, ...]}`: per content id the fact id recorded for it ("" when none) and whether a fact uses
 * it as its own id; `cursor` is where an unfinished build goes on ("" to start).
 */
export const CONTENT_LOOKUP_LUA = `
local holders, taken = {}, {}
for i = 1, #ARGV do
  holders[i] = redis.call('HGET', KEYS[1], 'c:' .. ARGV[i]) or ''
  taken[i] = redis.call('HEXISTS', KEYS[1], 'i:' .. ARGV[i])
end
local complete = redis.call('HEXISTS', KEYS[1], 'complete')
local cursor = redis.call('HGET', KEYS[1], 'build') or ''
return cjson.encode({ complete = complete, cursor = cursor, holders = holders, taken = taken })
`;

/**
 * KEYS: index. ARGV: build state ("" to leave it, "complete", or "cursor:<where the build goes
 * on>"), then content id / fact id pairs. Records each pair (an earlier content id of the same
 * fact stays: a stale entry only sends a later lookup to the fact index). Returns how many pairs
 * it recorded.
 */
export const CONTENT_RECORD_LUA = `
local n = 0
for i = 2, #ARGV - 1, 2 do
  redis.call('HSET', KEYS[1], 'c:' .. ARGV[i], ARGV[i + 1], 'i:' .. ARGV[i + 1], ARGV[i])
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

/** KEYS: index. ARGV: fact ids. Forgets each deleted fact and its content id; returns how many it knew. */
export const CONTENT_FORGET_LUA = `
local n = 0
for i = 1, #ARGV do
  local id = ARGV[i]
  local c = redis.call('HGET', KEYS[1], 'i:' .. id)
  if c then
    if redis.call('HGET', KEYS[1], 'c:' .. c) == id then redis.call('HDEL', KEYS[1], 'c:' .. c) end
    redis.call('HDEL', KEYS[1], 'i:' .. id)
    n = n + 1
  end
  if redis.call('HGET', KEYS[1], 'c:' .. id) == id then redis.call('HDEL', KEYS[1], 'c:' .. id) end
end
return n
`;

/** KEYS: index. Drops it (the user's facts were all deleted); returns 1 if it existed. */
export const CONTENT_CLEAR_LUA = `
return redis.call('DEL', KEYS[1])
`;
