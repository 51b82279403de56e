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

/** KEYS: job hash. ARGV: receipt id, started at, ttl seconds. The running job, or a new one. */
export const ERASE_BEGIN_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'receiptId', ARGV[1], 'startedAt', ARGV[2], 'sessions', 0, 'messages', 0, 'archives', 0, 'notes', 0, 'facts', 0)
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return cjson.encode(redis.call('HGETALL', KEYS[1]))
`;

/** KEYS: job hash. ARGV: sessions, messages, archives, notes, facts, done ("1"). The totals. */
export const ERASE_ADD_LUA = `
local names = {'sessions', 'messages', 'archives', 'notes', 'facts', 'backups'}
local out = {}
for i, name in ipairs(names) do out[i] = redis.call('HINCRBY', KEYS[1], name, ARGV[i]) end
if ARGV[#names + 1] == '1' then redis.call('DEL', KEYS[1]) end
return cjson.encode(out)
`;
