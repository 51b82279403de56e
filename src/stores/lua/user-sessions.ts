/** @module Lua scripts over a user's session index (list, export, erase), the tenant index sweep and the summary failure count. */
import { LUA_HMAP } from "./common.ts";

/**
 * Scripts over one user's session index (`am:{t}:u:{u}:sessions`, newest activity last). Session
 * keys are built from `sessionPrefix .. id .. ':' .. part`; a member counts as the user's session
 * only while its meta names the user as owner (a reused id may belong to someone else now).
 */

/** `owned(sid)`: whether the session's meta names ARGV[1] as its owner. */
const LUA_OWNED = `
local function skey(sid, part) return ARGV[2] .. sid .. ':' .. part end
local function owned(sid) return redis.call('HGET', skey(sid, 'meta'), 'userId') == ARGV[1] end
`;

/**
 * One page of the user's own sessions, newest first, with what a session list shows: created and
 * last-write times, the messages so far (summarized plus window, system excluded) and the title.
 *
 * KEYS: userIndex
 * ARGV: userId sessionPrefix offset limit
 */
export const USER_SESSIONS_LUA = `${LUA_OWNED}
local off, lim = tonumber(ARGV[3]), tonumber(ARGV[4])
local members = redis.call('ZREVRANGE', KEYS[1], off, off + lim - 1)
local sessions = {}
for _, sid in ipairs(members) do
  if owned(sid) then
    local meta = redis.call('HMGET', skey(sid, 'meta'), 'created', 'updated', 'title')
    local covered = tonumber(redis.call('HGET', skey(sid, 'sum'), 'covered') or '0') or 0
    sessions[#sessions + 1] = {
      id = sid,
      created = meta[1],
      updated = meta[2],
      title = meta[3] or '',
      count = covered + redis.call('LLEN', skey(sid, 'win')),
    }
  end
end
return cjson.encode({ sessions = sessions, scanned = #members })
`;

/**
 * Everything stored about a page of the user's own sessions, newest first. A page stops after the
 * session that takes it past maxBytes (of stored text), so a page stays bounded in bytes whatever
 * the sessions hold; `scanned` says how many index entries it covered.
 *
 * KEYS: userIndex
 * ARGV: userId sessionPrefix offset limit maxBytes
 */
export const EXPORT_SESSIONS_LUA = `${LUA_HMAP}${LUA_OWNED}
local function turn_outcomes(key)
  local flat = redis.call('HGETALL', key)
  local out = {}
  for i = 1, #flat, 2 do
    if string.sub(flat[i], 1, 2) == 'k:' then out[#out + 1] = flat[i + 1] end
  end
  return out
end
local off, lim = tonumber(ARGV[3]), tonumber(ARGV[4])
local members = redis.call('ZREVRANGE', KEYS[1], off, off + lim - 1)
local sessions = {}
local max_bytes = tonumber(ARGV[5] or '0')
local bytes, scanned = 0, 0
local function size(t)
  local n = 0
  for k, v in pairs(t) do n = n + #tostring(k) + (type(v) == 'string' and #v or 0) end
  return n
end
for _, sid in ipairs(members) do
  if max_bytes > 0 and bytes >= max_bytes then break end
  scanned = scanned + 1
  if owned(sid) then
    local s = {
      id = sid,
      sys = redis.call('LRANGE', skey(sid, 'sys'), 0, -1),
      win = redis.call('LRANGE', skey(sid, 'win'), 0, -1),
      sum = hmap(skey(sid, 'sum')),
      meta = hmap(skey(sid, 'meta')),
      arc = redis.call('LRANGE', skey(sid, 'arc'), 0, -1),
      notes = hmap(skey(sid, 'notes')),
      pad = redis.call('LRANGE', skey(sid, 'pad'), 0, -1),
      turns = turn_outcomes(skey(sid, 'turns')),
    }
    for _, part in ipairs({ 'sys', 'win', 'sum', 'arc', 'notes', 'pad', 'turns' }) do bytes = bytes + size(s[part]) end
    sessions[#sessions + 1] = s
  end
end
return cjson.encode({ sessions = sessions, scanned = scanned, full = scanned == #members })
`;

/**
 * Deletes up to `limit` of the user's own sessions (every key, the tenant-index and owner entries)
 * and drops the index entries it examined; entries naming another user's session leave that
 * session alone. The counts go into the user's running erase job (when there is one) in this same
 * step, so a receipt never misses what a faulted request deleted.
 *
 * KEYS: userIndex tenantIndex owners eraseJob
 * ARGV: userId sessionPrefix limit
 */
export const ERASE_SESSIONS_LUA = `${LUA_OWNED}
local members = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[3]) - 1)
local out = { sessions = 0, messages = 0, archived = 0, notes = 0, skipped = 0 }
for _, sid in ipairs(members) do
  if owned(sid) then
    out.sessions = out.sessions + 1
    out.messages = out.messages + redis.call('LLEN', skey(sid, 'sys')) + redis.call('LLEN', skey(sid, 'win'))
    out.archived = out.archived + redis.call('LLEN', skey(sid, 'arc'))
    out.notes = out.notes + redis.call('HLEN', skey(sid, 'notes')) + redis.call('LLEN', skey(sid, 'pad'))
    for _, part in ipairs({ 'sys', 'win', 'sum', 'meta', 'arc', 'ids', 'notes', 'pad', 'lock', 'turns' }) do
      redis.call('DEL', skey(sid, part))
    end
    redis.call('ZREM', KEYS[2], sid)
    if redis.call('HGET', KEYS[3], sid) == ARGV[1] then redis.call('HDEL', KEYS[3], sid) end
  else
    out.skipped = out.skipped + 1
  end
  redis.call('ZREM', KEYS[1], sid)
end
out.more = redis.call('ZCARD', KEYS[1]) > 0
if out.sessions > 0 and redis.call('EXISTS', KEYS[4]) == 1 then
  redis.call('HINCRBY', KEYS[4], 'sessions', out.sessions)
  redis.call('HINCRBY', KEYS[4], 'messages', out.messages)
  redis.call('HINCRBY', KEYS[4], 'archives', out.archived)
  redis.call('HINCRBY', KEYS[4], 'notes', out.notes)
end
return cjson.encode(out)
`;

/**
 * One page of the tenant-index sweep: drops entries whose session meta has expired, from the
 * tenant's index and from the owner's index (the owners hash remembers who owned it). Walks by
 * rank, oldest activity first (the likeliest to have expired).
 *
 * KEYS: tenantIndex owners
 * ARGV: offset limit sessionPrefix userPrefix userSuffix
 */
export const SWEEP_LUA = `
local off, lim = tonumber(ARGV[1]), tonumber(ARGV[2])
local members = redis.call('ZRANGE', KEYS[1], off, off + lim - 1)
local removed = {}
for _, sid in ipairs(members) do
  if redis.call('EXISTS', ARGV[3] .. sid .. ':meta') == 0 then
    redis.call('ZREM', KEYS[1], sid)
    local owner = redis.call('HGET', KEYS[2], sid)
    if owner then
      redis.call('ZREM', ARGV[4] .. owner .. ARGV[5], sid)
      redis.call('HDEL', KEYS[2], sid)
    end
    removed[#removed + 1] = sid
  end
end
return cjson.encode({ scanned = #members, removed = removed })
`;

/**
 * Counts one failed summarizer call in the session's meta (only while the session exists).
 *
 * KEYS: meta
 */
export const SUMMARY_FAILURE_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HINCRBY', KEYS[1], 'sumfail', 1)
`;
