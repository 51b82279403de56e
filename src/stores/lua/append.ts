/** @module The Lua script that appends messages to a session idempotently, queues facts and recalls, and replies with totals. */
import { TURN_OUTCOMES_KEPT } from "../../memory/ports/index.ts";
import { LUA_EXTEND, LUA_SNAPSHOT, LUA_TOUCH } from "./common.ts";

/**
 * Appends messages idempotently, in one atomic step.
 *
 * KEYS: sys win sum meta arc ids tenantIndex owners pendingFacts pendingUsers recalls recallUsers turns tombstone
 * ARGV: now ttl userId('' = none) flags sessionId userPrefix userSuffix factCount recallCount
 *       allowance limit threshold (the snapshot's bound, see WindowBound),
 *       then per fact: id json, then the recalled fact ids,
 *       then per message: id kind tokens json,
 *       then turnKey outcome title retryTag ('' = none each), then dated ('' = none)
 *
 * kind: 's' system, 'w' window, 'a <call ids>' an assistant message calling tools, 't <call id>' a
 * tool result. Turn outcomes and tool-call pairing (see TURN_LUA below): when the turn key already
 * has an outcome nothing is stored and the reply carries it; a new tool result must answer a call
 * of the assistant message right before it (in the batch, or the window's newest, kept as
 * meta.calls), else nothing is stored and the reply is err 'orphan_tool'. A retry tag names the
 * request a batch came from: a batch that stores something records it as meta.tail (any other
 * write that stores something clears it), and a batch with the tag meta.tail holds is a client's
 * retry of a request whose reply never came - nothing of it is stored again (its messages are
 * reported as duplicates).
 *
 * The reply always carries the totals the stats need (counts, tokens, importance sums, meta); the
 * window's are running totals in meta ('wtok', 'wimp'), so no append reads the window.
 * flags: 's' returns the bounded snapshot too; 'r' makes the batch's system messages replace the pinned
 * ones when they differ (their ids leave the id set, so they could be pinned again later);
 * 'e<ms>' stores nothing (err 'erased') when the tombstone of the session's owner (the named user,
 * else the stored owner) is at or after <ms>.
 * dated: per message '1' when the client gave its ts (see TIME_CHECK_LUA below).
 * `ttl` is the default idle TTL; a per-session `set:ttlSeconds` override stored in meta wins.
 * The owner check runs before any write, so a mismatch changes nothing - no message, no queued
 * fact, no recall count. A session id that a new owner takes over (the old session expired) leaves the previous
 * owner's index. The user index key is built here from the owner (validated when written).
 */
/** Before any write: the turn's recorded outcome, and the pairing of new tool results with calls. */
const TURN_CHECK_LUA = `
local msg_end = #ARGV - 5
local tkey, tout, title, rtag = ARGV[#ARGV - 4], ARGV[#ARGV - 3], ARGV[#ARGV - 2], ARGV[#ARGV - 1]
local prior = false
if tkey ~= '' then prior = redis.call('HGET', KEYS[13], 'k:' .. tkey) end
local retried = (not prior) and rtag ~= '' and redis.call('HGET', KEYS[4], 'tail') == rtag
local open = redis.call('HGET', KEYS[4], 'calls') or ''
if not prior and not retried then
  local seen = {}
  for i = first, msg_end, 4 do
    local id, kind = ARGV[i], ARGV[i + 1]
    if not seen[id] and redis.call('SISMEMBER', KEYS[6], id) == 0 then
      local tag = string.sub(kind, 1, 1)
      if tag == 'a' then
        open = string.sub(kind, 3)
      elseif tag == 't' then
        if not string.find(' ' .. open .. ' ', ' ' .. string.sub(kind, 3) .. ' ', 1, true) then
          return cjson.encode({ err = 'orphan_tool', index = (i - first) / 4 })
        end
      elseif tag ~= 's' then
        open = ''
      end
    end
    seen[id] = true
  end
end
`;

/**
 * Before the first write: a new message whose ts the client gave must not be older than the session's
 * newest stored message. meta.lastts keeps that time (every append raises it, a reset drops it);
 * a session written before it was kept falls back to its newest window message. `msg_ts` reads a
 * message's ts from its clear header (see serializeMessage), decoding older entries as a fallback;
 * it stays a string, so no float formatting touches it.
 */
const TIME_CHECK_LUA = `
local function msg_ts(raw)
  if not raw then return nil end
  local ts = string.match(raw, '^{"id":"[^"]*","role":"[a-z]+","tokens":%d+,"importance":[-+.%deE]+,"ts":(%d+)[,}]')
  if ts then return ts end
  local ok, msg = pcall(cjson.decode, raw)
  if ok and type(msg) == 'table' and type(msg.ts) == 'number' then return string.format('%.0f', msg.ts) end
  return nil
end
local dated = ARGV[#ARGV]
local lastts = redis.call('HGET', KEYS[4], 'lastts') or nil
if not prior and not retried and string.find(dated, '1', 1, true) then
  lastts = lastts or msg_ts(redis.call('LINDEX', KEYS[2], -1) or nil)
  local newest = tonumber(lastts or '')
  local seen = {}
  for i = first, msg_end, 4 do
    local id, n = ARGV[i], (i - first) / 4
    if newest and not seen[id] and string.sub(dated, n + 1, n + 1) == '1' and redis.call('SISMEMBER', KEYS[6], id) == 0 then
      local ts = tonumber(msg_ts(ARGV[i + 3]) or '')
      if ts and ts < newest then return cjson.encode({ err = 'ts_before_previous', index = n, previous = lastts }) end
    end
    seen[id] = true
  end
end
`;

/** After the messages: the calls left open, the title, and the outcome recorded once per key. */
const TURN_RECORD_LUA = `
local stored = false
for _, a in ipairs(added) do if a == 1 then stored = true end end
if stored then
  redis.call('HSET', KEYS[4], 'calls', open)
  if rtag ~= '' then redis.call('HSET', KEYS[4], 'tail', rtag) else redis.call('HDEL', KEYS[4], 'tail') end
  if title ~= '' then redis.call('HSETNX', KEYS[4], 'title', title) end
  if tkey ~= '' and tout ~= '' then
    local n = redis.call('HINCRBY', KEYS[13], '#', 1)
    redis.call('HSET', KEYS[13], 'k:' .. tkey, tout)
    redis.call('HSET', KEYS[13], 'o:' .. n, tkey)
    local gone = n - ${TURN_OUTCOMES_KEPT}
    if gone > 0 then
      local old = redis.call('HGET', KEYS[13], 'o:' .. gone)
      if old then redis.call('HDEL', KEYS[13], 'k:' .. old, 'o:' .. gone) end
    end
    prior = tout
  end
end
redis.call('EXPIRE', KEYS[13], ttl)
`;

export const APPEND_LUA = `${LUA_SNAPSHOT}${LUA_TOUCH}${LUA_EXTEND}
local now, ttl, uid, sid = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[5]
local owner = redis.call('HGET', KEYS[4], 'userId')
local override = tonumber(redis.call('HGET', KEYS[4], 'set:ttlSeconds'))
if override and override > 0 then ttl = override end
if uid ~= '' and owner and owner ~= uid then
  return cjson.encode({ err = 'owner_mismatch' })
end
local erased_since = string.match(ARGV[4], 'e(%d+)')
if erased_since then
  -- the tombstone of the session's owner, named or not (built from the stored, validated owner)
  local tomb = KEYS[14]
  if uid == '' then tomb = owner and (ARGV[6] .. owner .. ':erased') or nil end
  local erased = tomb and tonumber(redis.call('GET', tomb) or '')
  if erased and erased >= tonumber(erased_since) then return cjson.encode({ err = 'erased' }) end
end
local nfacts, nrecalls = tonumber(ARGV[8]), tonumber(ARGV[9])
local first = 13 + 2 * nfacts + nrecalls
${TURN_CHECK_LUA}${TIME_CHECK_LUA}
if not prior and not retried and string.find(ARGV[4], 'r', 1, true) then
  local wanted = {}
  for i = first, msg_end, 4 do
    if ARGV[i + 1] == 's' then wanted[#wanted + 1] = ARGV[i] end
  end
  if #wanted > 0 then
    local current = redis.call('LRANGE', KEYS[1], 0, -1)
    local same = #current == #wanted
    local ids = {}
    for j, raw in ipairs(current) do
      ids[j] = msg_head(raw)
      if ids[j] ~= wanted[j] then same = false end
    end
    if not same then
      for _, id in ipairs(ids) do redis.call('SREM', KEYS[6], id) end
      redis.call('DEL', KEYS[1])
    end
  end
end
if not prior and redis.call('HEXISTS', KEYS[4], 'wimp') == 0 then
  redis.call('HSET', KEYS[4], 'wimp', win_importance(KEYS[4], KEYS[2]))
end
local added = {}
for i = first, msg_end, 4 do
  if not prior and not retried and redis.call('SADD', KEYS[6], ARGV[i]) == 1 then
    if ARGV[i + 1] == 's' then
      redis.call('RPUSH', KEYS[1], ARGV[i + 3])
    else
      redis.call('RPUSH', KEYS[2], ARGV[i + 3])
      redis.call('HINCRBY', KEYS[4], 'wtok', ARGV[i + 2])
      local _, _, imp = msg_head(ARGV[i + 3])
      redis.call('HINCRBY', KEYS[4], 'wimp', imp)
    end
    added[#added + 1] = 1
    local ts = msg_ts(ARGV[i + 3])
    if ts and (not lastts or tonumber(ts) > tonumber(lastts)) then lastts = ts end
  else
    added[#added + 1] = 0
  end
end
redis.call('HSETNX', KEYS[4], 'created', now)
redis.call('HSETNX', KEYS[4], 'epoch', '0')
redis.call('HSETNX', KEYS[4], 'wtok', '0')
redis.call('HSET', KEYS[4], 'updated', now)
if lastts then redis.call('HSET', KEYS[4], 'lastts', lastts) end
if uid ~= '' and not owner then
  redis.call('HSET', KEYS[4], 'userId', uid)
  local previous = redis.call('HGET', KEYS[8], sid)
  if previous and previous ~= uid then redis.call('ZREM', ARGV[6] .. previous .. ARGV[7], sid) end
  redis.call('HSET', KEYS[8], sid, uid)
  owner = uid
end
if not retried then
  for i = 13, 12 + 2 * nfacts, 2 do redis.call('HSET', KEYS[9], ARGV[i], ARGV[i + 1]) end
  if nfacts > 0 then redis.call('SADD', KEYS[10], owner) end
end
for i = 13 + 2 * nfacts, 12 + 2 * nfacts + nrecalls do
  redis.call('HINCRBY', KEYS[11], ARGV[i], 1)
  local last = tonumber(redis.call('HGET', KEYS[11], '@' .. ARGV[i]) or '0')
  if tonumber(now) > last then redis.call('HSET', KEYS[11], '@' .. ARGV[i], now) end
end
if nrecalls > 0 then redis.call('SADD', KEYS[12], owner) end
${TURN_RECORD_LUA}
touch(ttl, KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
redis.call('ZADD', KEYS[7], now, sid)
extend(KEYS[7], ttl)
if owner then
  local ukey = ARGV[6] .. owner .. ARGV[7]
  redis.call('ZADD', ukey, now, sid)
  extend(ukey, ttl)
end
local scount, stok, simp = sys_totals(KEYS[1])
local reply = {
  added = added,
  wcount = redis.call('LLEN', KEYS[2]),
  wtok = redis.call('HGET', KEYS[4], 'wtok'),
  wimp = win_importance(KEYS[4], KEYS[2]),
  scount = scount, stok = stok, simp = simp,
  meta = hmap(KEYS[4]),
}
if string.find(ARGV[4], 's', 1, true) then
  local bound = nil
  if ARGV[10] ~= '' then bound = { allowance = tonumber(ARGV[10]), limit = tonumber(ARGV[11]), threshold = tonumber(ARGV[12]) } end
  reply.snap = snapshot(KEYS[1], KEYS[2], KEYS[3], KEYS[4], bound)
end
if prior then reply.outcome = prior end
local snap = reply.snap
if snap == nil then return cjson.encode(reply) end
reply.snap = nil
local head = cjson.encode(reply)
return string.sub(head, 1, -2) .. ',"snap":' .. encode_snap(snap) .. '}'
`;
