/**
 * @module Scripts of the per-user learning lock: take it (answering what recent turns wrote) and
 * release it by compare-and-delete (recording what this turn wrote), each one round trip.
 */

/**
 * Takes the lock unless another holder has it; answers the ids recent learning turns wrote,
 * newest first.
 *
 * KEYS: lock written
 * ARGV: token ttlMs limit
 */
export const ACQUIRE_LEARNING_LUA = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', tonumber(ARGV[2])) then return cjson.encode({ held = 1 }) end
return cjson.encode({ held = 0, written = redis.call('ZREVRANGE', KEYS[2], 0, tonumber(ARGV[3]) - 1) })
`;

/**
 * Records the ids this turn wrote (dropping entries older than the keep window and beyond the
 * cap), unless the user was erased at or after the turn began; then deletes the lock if `token`
 * still holds it (a holder whose lock expired never deletes the next holder's lock).
 *
 * KEYS: lock written tombstone
 * ARGV: token since now keepMs cap, then the ids
 */
export const RELEASE_LEARNING_LUA = `
local erased = tonumber(redis.call('GET', KEYS[3]) or '')
if #ARGV > 5 and not (erased and erased >= tonumber(ARGV[2])) then
  local now = tonumber(ARGV[3])
  for i = 6, #ARGV do redis.call('ZADD', KEYS[2], now, ARGV[i]) end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - tonumber(ARGV[4])))
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[5]) - 1)
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[4]))
end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;
