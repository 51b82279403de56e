/**
 * Scripts over one user's records beside the sessions: the erase tombstone, facts queued for
 * Vector (hash id -> fact JSON) and recall counts (hash id -> count, '@' .. id -> last recall).
 * Each tenant keeps a set of the users that have queued facts or counts, for the cron.
 */

/**
 * Records an erase and drops what was queued for the user, and the learning lock and the ids
 * recent learning wrote (a turn still running finds the tombstone and records nothing).
 *
 * KEYS: tombstone pendingFacts pendingUsers recalls recallUsers learnLock learnedIds
 * ARGV: userId at tombstoneTtlSeconds
 */
export const MARK_ERASED_LUA = `
redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
redis.call('DEL', KEYS[2], KEYS[4], KEYS[6], KEYS[7])
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('SREM', KEYS[5], ARGV[1])
return 1
`;

/**
 * Unqueues facts that reached Vector, each only if its entry is still the one that was delivered
 * (a restatement queued meanwhile stays for the next delivery). Replies with the tombstone.
 *
 * KEYS: pendingFacts pendingUsers tombstone
 * ARGV: userId, then pairs of id json
 */
export const CONFIRM_FACTS_LUA = `
for i = 2, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
return cjson.encode({ erasedAt = redis.call('GET', KEYS[3]) or '' })
`;

/**
 * Queued facts, at most `limit` (values stay JSON strings inside the one JSON reply).
 *
 * KEYS: pendingFacts
 * ARGV: limit
 */
export const PENDING_FACTS_LUA = `
local flat = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 2, math.min(#flat, 2 * tonumber(ARGV[1])), 2 do out[#out + 1] = flat[i] end
return cjson.encode({ facts = out })
`;

/**
 * Counts one recall of each id and remembers the latest recall time.
 *
 * KEYS: recalls recallUsers
 * ARGV: userId at, then the ids
 */
export const RECORD_RECALLS_LUA = `
for i = 3, #ARGV do
  redis.call('HINCRBY', KEYS[1], ARGV[i], 1)
  local last = tonumber(redis.call('HGET', KEYS[1], '@' .. ARGV[i]) or '0')
  if tonumber(ARGV[2]) > last then redis.call('HSET', KEYS[1], '@' .. ARGV[i], ARGV[2]) end
end
redis.call('SADD', KEYS[2], ARGV[1])
return 1
`;

/**
 * Recall counts not yet merged, at most `limit`.
 *
 * KEYS: recalls
 * ARGV: limit
 */
export const RECALL_COUNTS_LUA = `
local flat = redis.call('HGETALL', KEYS[1])
local counts, last = {}, {}
for i = 1, #flat, 2 do
  if string.sub(flat[i], 1, 1) == '@' then last[string.sub(flat[i], 2)] = flat[i + 1] else counts[#counts + 1] = flat[i] end
end
local out = {}
for j = 1, math.min(#counts, tonumber(ARGV[1])) do
  local id = counts[j]
  out[#out + 1] = { id = id, count = redis.call('HGET', KEYS[1], id), at = last[id] or '0' }
end
return cjson.encode({ counts = out })
`;

/**
 * Subtracts merged counts; an id whose count reaches zero leaves the hash (recalls counted since
 * the merge read it keep their increments).
 *
 * KEYS: recalls recallUsers
 * ARGV: userId, then pairs of id count
 */
export const SETTLE_RECALLS_LUA = `
for i = 2, #ARGV, 2 do
  if redis.call('HINCRBY', KEYS[1], ARGV[i], -tonumber(ARGV[i + 1])) <= 0 then
    redis.call('HDEL', KEYS[1], ARGV[i], '@' .. ARGV[i])
  end
end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
return 1
`;
