/** @module The Lua script that commits a compression (summary in, window prefix archived) if epoch, summary and prefix are as read. */
import { LUA_MSG_HEAD, LUA_TOUCH, LUA_WINDOW } from "./common.ts";

/**
 * Compare-and-set commit of a compression. Every check (and every decode that could fail) runs
 * before the first write: a Lua error midway would leave the writes before it in place.
 *
 * KEYS: sys win sum meta arc ids
 * ARGV: epoch expectedVersion archiveLimit ttl text tokens covered method updatedAt lastRatio,
 *       then the prefix ids, oldest first
 */
export const COMMIT_LUA = `${LUA_TOUCH}${LUA_MSG_HEAD}${LUA_WINDOW}
if redis.call('EXISTS', KEYS[4]) == 0 then return cjson.encode({ reason = 'missing' }) end
if tonumber(redis.call('HGET', KEYS[4], 'epoch') or '0') ~= tonumber(ARGV[1]) then
  return cjson.encode({ reason = 'reset' })
end
if tonumber(redis.call('HGET', KEYS[3], 'version') or '0') ~= tonumber(ARGV[2]) then
  return cjson.encode({ reason = 'version_changed' })
end
local n = #ARGV - 10
local prefix = {}
if n > 0 then prefix = redis.call('LRANGE', KEYS[2], 0, n - 1) end
if #prefix ~= n then return cjson.encode({ reason = 'prefix_changed' }) end
local removed, removed_imp = 0, 0
for i = 1, n do
  local id, tokens, imp = msg_head(prefix[i])
  if id ~= ARGV[10 + i] then return cjson.encode({ reason = 'prefix_changed' }) end
  removed = removed + tokens
  removed_imp = removed_imp + imp
end
local wimp = win_importance(KEYS[4], KEYS[2])
-- checks passed: from here on only writes
if n > 0 then redis.call('LTRIM', KEYS[2], n, -1) end
redis.call('HSET', KEYS[3], 'text', ARGV[5], 'tokens', ARGV[6], 'covered', ARGV[7],
  'method', ARGV[8], 'updatedAt', ARGV[9], 'lastRatio', ARGV[10])
local version = redis.call('HINCRBY', KEYS[3], 'version', 1)
redis.call('HINCRBY', KEYS[4], 'wtok', -removed)
redis.call('HSET', KEYS[4], 'wimp', wimp - removed_imp)
redis.call('HDEL', KEYS[4], 'sumfail')
local limit = tonumber(ARGV[3])
if limit > 0 then
  for i = 1, n do redis.call('RPUSH', KEYS[5], prefix[i]) end
  redis.call('LTRIM', KEYS[5], -limit, -1)
else
  redis.call('DEL', KEYS[5])
end
touch(tonumber(ARGV[4]), KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
return cjson.encode({ committed = true, removedTokens = removed, version = version })
`;
