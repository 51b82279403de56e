/**
 * Stores one trace unless its user was erased at or after the turn began; lists it under its
 * session (capped) and its user (so an erase finds it).
 *
 * KEYS: trace, session list, user set, user tombstone
 * ARGV: trace JSON, ref JSON, ttl seconds, list cap, turn start (ms), trace id, has user ('1'/'0')
 */
export const TRACE_PUT_LUA = `
local user = ARGV[7] == '1'
if user then
  local erased = tonumber(redis.call('GET', KEYS[4]) or '')
  if erased and erased >= tonumber(ARGV[5]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[4]) - 1)
redis.call('EXPIRE', KEYS[2], ARGV[3])
if user then
  redis.call('SADD', KEYS[3], ARGV[6])
  redis.call('EXPIRE', KEYS[3], ARGV[3])
end
return 1
`;

/**
 * Deletes up to `limit` of a user's traces and counts them into the user's running erase job in
 * the same step.
 *
 * KEYS: user set, erase job
 * ARGV: trace key prefix, limit
 */
export const TRACE_ERASE_LUA = `
-- SPOP with a count on a missing key: an empty list in Redis, nil in some engines
local ids = {}
if redis.call('SCARD', KEYS[1]) > 0 then ids = redis.call('SPOP', KEYS[1], tonumber(ARGV[2])) end
local removed = 0
for _, id in ipairs(ids) do removed = removed + redis.call('DEL', ARGV[1] .. id) end
if removed > 0 and redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HINCRBY', KEYS[2], 'traces', removed) end
return cjson.encode({ removed = removed, more = redis.call('SCARD', KEYS[1]) > 0 })
`;
