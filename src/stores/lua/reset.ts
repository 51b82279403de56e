/** @module The Lua script that clears a session, optionally keeping its pinned system messages, and bumps its epoch. */
import { LUA_MSG_HEAD } from "./common.ts";

/**
 * Clears a session (a `/clear`), optionally keeping the pinned system messages. Bumps the epoch so
 * a compression that read the session before the reset cannot commit after it. Meta (owner,
 * settings, created) survives; its TTL is left as it is. Turn outcomes, the open tool calls, the
 * title and the retry tag of the last request (meta.tail, see APPEND_LUA) go with the conversation:
 * the same request after a reset is a new turn, not a retry of one that is gone. So does the newest
 * message's time (meta.lastts): a reset session takes dated messages of every age again.
 *
 * KEYS: sys win sum meta arc ids notes pad turns
 * ARGV: keepSystem('1'/'0')
 */
export const RESET_LUA = `${LUA_MSG_HEAD}
local keep = ARGV[1] == '1'
local nwin = redis.call('LLEN', KEYS[2])
local nsys = redis.call('LLEN', KEYS[1])
local kept = {}
if keep then kept = redis.call('LRANGE', KEYS[1], 0, -1) end
local ids = {}
for i = 1, #kept do
  local id = msg_head(kept[i])
  if id then ids[#ids + 1] = id end
end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9])
redis.call('HDEL', KEYS[4], 'calls', 'title', 'tail', 'lastts')
local removed = nwin
if keep then
  -- kept system messages stay idempotent: re-sending the same prompt id must not duplicate it
  for i = 1, #ids do redis.call('SADD', KEYS[6], ids[i]) end
  local ttl = redis.call('TTL', KEYS[1])
  if ttl > 0 and #ids > 0 then redis.call('EXPIRE', KEYS[6], ttl) end
else
  removed = removed + nsys
  redis.call('DEL', KEYS[1])
end
if redis.call('EXISTS', KEYS[4]) == 1 then
  redis.call('HINCRBY', KEYS[4], 'epoch', 1)
  redis.call('HSET', KEYS[4], 'wtok', '0', 'wimp', '0')
end
if keep then return cjson.encode({ removed = removed, kept = nsys }) end
return cjson.encode({ removed = removed, kept = 0 })
`;
