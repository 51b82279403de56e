/**
 * KEYS: log (sorted set by ts), throttle counter of the current minute.
 * ARGV: score (ts), member (entry JSON), max entries, throttle limit ("0": none).
 * One round trip: the throttle check, the add and the cap. Returns 1 when recorded, 0 when throttled.
 */
export const AUDIT_APPEND_LUA = `
local limit = tonumber(ARGV[4])
if limit > 0 then
  local n = redis.call('INCR', KEYS[2])
  if n == 1 then redis.call('EXPIRE', KEYS[2], 120) end
  if n > limit then return 0 end
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
local size = redis.call('ZCARD', KEYS[1])
local max = tonumber(ARGV[3])
if size > max then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, size - max - 1) end
return 1
`;

/** What an erase counts, in the order the journal scripts return them. */
export const ERASE_COUNT_NAMES = ["sessions", "messages", "archives", "notes", "facts", "backups", "traces"] as const;

const LUA_COUNTS = `
local names = {${ERASE_COUNT_NAMES.map((n) => `'${n}'`).join(", ")}}
local function counts(key)
  local out = {}
  for i, name in ipairs(names) do out[i] = tonumber(redis.call('HGET', key, name) or '0') end
  return out
end
`;

/** KEYS: job hash. ARGV: receipt id, started at, ttl seconds. The running job, or a new one. */
export const ERASE_BEGIN_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'receiptId', ARGV[1], 'startedAt', ARGV[2], 'sessions', 0, 'messages', 0, 'archives', 0, 'notes', 0, 'facts', 0, 'backups', 0, 'traces', 0)
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return cjson.encode(redis.call('HGETALL', KEYS[1]))
`;

/**
 * KEYS: job hash. ARGV: part, remaining. Before a part's delete: what is left of an earlier plan
 * that has gone meanwhile is counted, then the part's pending count is what is there now.
 */
export const ERASE_PLAN_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local field = 'p:' .. ARGV[1]
local pending = tonumber(redis.call('HGET', KEYS[1], field) or '')
local remaining = tonumber(ARGV[2])
if pending and pending > remaining then redis.call('HINCRBY', KEYS[1], ARGV[1], pending - remaining) end
redis.call('HSET', KEYS[1], field, remaining)
return 1
`;

/** KEYS: job hash. ARGV: part. After a part's delete: its pending count is removed. */
export const ERASE_SETTLE_LUA = `
local field = 'p:' .. ARGV[1]
local pending = tonumber(redis.call('HGET', KEYS[1], field) or '')
if pending then
  redis.call('HINCRBY', KEYS[1], ARGV[1], pending)
  redis.call('HDEL', KEYS[1], field)
end
return 1
`;

/**
 * KEYS: job hash, last receipt hash. ARGV: more ('1': this request left something), now, ttl of
 * the last receipt (seconds). Ends a request of an erase (see EraseJournal.finish); returns
 * { state, receiptId, startedAt, counts }.
 */
export const ERASE_FINISH_LUA = `${LUA_COUNTS}
local function answer(state, key)
  return cjson.encode({ state = state, receiptId = redis.call('HGET', key, 'receiptId'), startedAt = redis.call('HGET', key, 'startedAt'), counts = counts(key) })
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  if redis.call('EXISTS', KEYS[2]) == 1 then return answer('replay', KEYS[2]) end
  return cjson.encode({ state = 'replay', counts = counts(KEYS[1]) })
end
local pending = redis.call('HEXISTS', KEYS[1], 'p:facts') == 1 or redis.call('HEXISTS', KEYS[1], 'p:backups') == 1
if ARGV[1] == '1' or pending then return answer('running', KEYS[1]) end
local empty = true
for _, n in ipairs(counts(KEYS[1])) do if n > 0 then empty = false end end
if empty and redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('DEL', KEYS[1])
  return answer('replay', KEYS[2])
end
local fields = { 'receiptId', redis.call('HGET', KEYS[1], 'receiptId'), 'startedAt', redis.call('HGET', KEYS[1], 'startedAt'), 'finishedAt', ARGV[2] }
for i, n in ipairs(counts(KEYS[1])) do
  fields[#fields + 1] = names[i]
  fields[#fields + 1] = n
end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], unpack(fields))
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('DEL', KEYS[1])
return answer('closed', KEYS[2])
`;
