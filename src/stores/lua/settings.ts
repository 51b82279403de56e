/** @module The Lua script that merges per-session settings field by field in the meta hash, and the settings' field names. */
import { LUA_EXTEND, LUA_TOUCH } from "./common.ts";

/** The meta hash fields that hold per-session settings, in ARGV order. */
export const SETTING_FIELDS = ["set:window", "set:maxTokens", "set:keep", "set:ttlSeconds"] as const;

/** ARGV value of a setting the change does not name: it keeps its stored value. */
export const KEEP_SETTING = "~";

/**
 * Merges per-session settings in one atomic step: each field is set, deleted ('') or kept as it
 * is ('~'), so two concurrent changes of different fields both survive. Creates the session's
 * meta when needed and refreshes the session's TTL (the stored `set:ttlSeconds` if any, else the
 * default). Returns the stored settings fields.
 *
 * KEYS: sys win sum meta arc ids tenantIndex
 * ARGV: now defaultTtl sessionId userPrefix userSuffix window maxTokens keep ttlSeconds
 */
export const SETTINGS_LUA = `${LUA_TOUCH}${LUA_EXTEND}
local now = ARGV[1]
local fields = { ${SETTING_FIELDS.map((f) => `'${f}'`).join(", ")} }
redis.call('HSETNX', KEYS[4], 'created', now)
redis.call('HSETNX', KEYS[4], 'epoch', '0')
redis.call('HSETNX', KEYS[4], 'wtok', '0')
if redis.call('LLEN', KEYS[2]) == 0 then redis.call('HSETNX', KEYS[4], 'wimp', '0') end
redis.call('HSET', KEYS[4], 'updated', now)
for i, f in ipairs(fields) do
  local v = ARGV[5 + i]
  if v == '' then redis.call('HDEL', KEYS[4], f) elseif v ~= '${KEEP_SETTING}' then redis.call('HSET', KEYS[4], f, v) end
end
local ttl = tonumber(redis.call('HGET', KEYS[4], 'set:ttlSeconds')) or tonumber(ARGV[2])
touch(ttl, KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
redis.call('ZADD', KEYS[7], now, ARGV[3])
extend(KEYS[7], ttl)
local owner = redis.call('HGET', KEYS[4], 'userId')
if owner then
  local ukey = ARGV[4] .. owner .. ARGV[5]
  redis.call('ZADD', ukey, now, ARGV[3])
  extend(ukey, ttl)
end
local out = {}
for _, f in ipairs(fields) do out[f] = redis.call('HGET', KEYS[4], f) or nil end
return cjson.encode(out)
`;
