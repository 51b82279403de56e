/** @module Lua helpers the session scripts prepend: hash reads, TTL refresh and extension, message headers, window and snapshot. */
import { WINDOW_SCAN_FACTOR } from "../../memory/ports/index.ts";

/**
 * Lua helpers prepended to the scripts that need them. Every script that returns data replies
 * with one `cjson.encode`d string: the Upstash client JSON-parses it once, so the strings inside
 * (summary text, note values) arrive untouched; a snapshot's stored messages, JSON objects
 * already, are spliced in as they are (`encode_snap`). Bare
 * arrays of strings would have every element JSON-parsed by the client ("123" -> 123, "[1, 2]" ->
 * an array), which is lossy.
 *
 * cjson encodes an empty Lua table as `{}`, so the parser treats `{}` as an empty list too.
 */

/** `hmap(key)`: a hash as a Lua table (a JSON object). */
export const LUA_HMAP = `
local function hmap(key)
  local flat = redis.call('HGETALL', key)
  local m = {}
  for i = 1, #flat, 2 do m[flat[i]] = flat[i + 1] end
  return m
end
`;

/** `touch(ttl, keys...)`: EXPIRE every given key (a no-op for keys that do not exist). */
export const LUA_TOUCH = `
local function touch(ttl, ...)
  for _, k in ipairs({...}) do redis.call('EXPIRE', k, ttl) end
end
`;

/** `extend(key, ttl)`: only ever lengthens a TTL, so a short-lived session never shortens an index. */
export const LUA_EXTEND = `
local function extend(key, ttl)
  if redis.call('TTL', key) < ttl then redis.call('EXPIRE', key, ttl) end
end
`;

/**
 * `msg_head(raw)`: id, token count, importance (in millionths, and as the number written) and role
 * of a stored message, read from its clear header without decoding it. The adapter writes every
 * message as `{"id":...,"role":...,"tokens":N,"importance":X,...}` and scripts never look past
 * that header, so the rest (content, metadata) may be anything, sealed or not. Entries written
 * before importance joined the header are decoded as a fallback; an unreadable one yields nil.
 */
export const LUA_MSG_HEAD = `
local function micros(x) return math.floor(x * 1000000 + 0.5) end
local function msg_head(raw)
  local id, role, tokens, imp = string.match(raw, '^{"id":"([^"]*)","role":"([a-z]+)","tokens":(%d+),"importance":([-+.%deE]+)[,}]')
  if id then
    local importance = tonumber(imp) or 0.5
    return id, tonumber(tokens), micros(importance), role, importance
  end
  local ok, msg = pcall(cjson.decode, raw)
  if ok and type(msg) == 'table' and type(msg.id) == 'string' then
    local importance = tonumber(msg.importance) or 0.5
    return msg.id, tonumber(msg.tokens) or 0, micros(importance), tostring(msg.role), importance
  end
  return nil, 0, 0, '', 0
end
`;

/**
 * Totals and bounded views of a session (needs LUA_HMAP and LUA_MSG_HEAD before it).
 * `sys_totals(ksys)`: count, tokens and importance of the pinned list (short; headers only).
 * `win_importance(kmeta, kwin)`: the window's importance sum kept in meta ('wimp'); sessions
 * written before it was kept are summed once from the headers.
 * `win_tail(kwin, n, allowance, limit, threshold)`: the newest messages a context can use (see
 * `WindowBound` in memory/ports/), read back in chunks; returns them oldest first and the index
 * of the first.
 */
export const LUA_WINDOW = `
local function sys_totals(ksys)
  local count, tokens, imp = 0, 0, 0
  for _, raw in ipairs(redis.call('LRANGE', ksys, 0, -1)) do
    local _, t, m = msg_head(raw)
    count, tokens, imp = count + 1, tokens + t, imp + m
  end
  return count, tokens, imp
end
local function win_importance(kmeta, kwin)
  local kept = redis.call('HGET', kmeta, 'wimp')
  if kept then return tonumber(kept) end
  local sum = 0
  for _, raw in ipairs(redis.call('LRANGE', kwin, 0, -1)) do
    local _, _, m = msg_head(raw)
    sum = sum + m
  end
  return sum
end
local function win_tail(kwin, n, allowance, limit, threshold)
  local lo = 0
  if limit > 0 and n > limit then lo = n - limit end
  local rev, hi, seen = {}, 0, 0
  local cap = allowance * ${WINDOW_SCAN_FACTOR}
  local i = n - 1
  local done = false
  while i >= lo and not done do
    local from = math.max(lo, i - 63)
    local chunk = redis.call('LRANGE', kwin, from, i)
    for j = #chunk, 1, -1 do
      local raw = chunk[j]
      local _, tokens, _, role, importance = msg_head(raw)
      rev[#rev + 1] = raw
      seen = seen + tokens
      if importance >= threshold then hi = hi + tokens end
      if role ~= 'tool' and (hi > allowance or seen > cap) then done = true break end
    end
    i = from - 1
  end
  local out = {}
  for j = #rev, 1, -1 do out[#out + 1] = rev[j] end
  return out, n - #rev
end
`;

/**
 * `snapshot(sys, win, sum, meta, bound)`: what the read script returns, shared with append. With
 * `bound` ({allowance, limit, threshold}) only the window's usable tail; without, all of it.
 * `session_base(...)`: the same without any window message.
 */
export const LUA_SNAPSHOT = `${LUA_HMAP}${LUA_MSG_HEAD}${LUA_WINDOW}
local function session_base(ksys, kwin, ksum, kmeta)
  local meta = hmap(kmeta)
  return { sys = redis.call('LRANGE', ksys, 0, -1), win = {}, sum = hmap(ksum), meta = meta,
    wcount = redis.call('LLEN', kwin), wstart = 0, wimp = win_importance(kmeta, kwin) }
end
local function snapshot(ksys, kwin, ksum, kmeta, bound)
  local snap = session_base(ksys, kwin, ksum, kmeta)
  if bound then
    local stok = 0
    for _, raw in ipairs(snap.sys) do
      local _, t = msg_head(raw)
      stok = stok + t
    end
    local limit = tonumber(snap.meta['set:window'] or '') or bound.limit
    snap.win, snap.wstart = win_tail(kwin, snap.wcount, math.max(0, bound.allowance - stok), limit, bound.threshold)
  else
    snap.win = redis.call('LRANGE', kwin, 0, -1)
  end
  return snap
end
-- The snapshot as JSON with its messages spliced in as stored (each is a JSON object already):
-- nothing is escaped into a string here and the client parses the reply once.
local function encode_snap(snap)
  local sys, win = snap.sys or {}, snap.win or {}
  snap.sys, snap.win = nil, nil
  local rest = cjson.encode(snap)
  snap.sys, snap.win = sys, win
  local msgs = '"sys":[' .. table.concat(sys, ',') .. '],"win":[' .. table.concat(win, ',') .. ']'
  if rest == '{}' then return '{' .. msgs .. '}' end
  return '{' .. msgs .. ',' .. string.sub(rest, 2)
end
`;
