/**
 * Lua helpers prepended to the scripts that need them. Every script that returns data replies
 * with one `cjson.encode`d string: the Upstash client base64-decodes it and JSON-parses it once,
 * so the strings inside (stored message JSON, summary text, note values) arrive untouched. Bare
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

/** `snapshot(sys, win, sum, meta)`: what the read script returns, shared with append. */
export const LUA_SNAPSHOT = `${LUA_HMAP}
local function snapshot(ksys, kwin, ksum, kmeta)
  return {
    sys = redis.call('LRANGE', ksys, 0, -1),
    win = redis.call('LRANGE', kwin, 0, -1),
    sum = hmap(ksum),
    meta = hmap(kmeta),
  }
end
`;

/**
 * `msg_head(raw)`: the id and token count of a stored message without decoding it. The adapter
 * writes every message as `{"id":...,"role":...,"tokens":N,...}`, so a pattern reads them and a
 * message whose rest (content, metadata) cjson could not decode never breaks a script. Older
 * entries in another key order are decoded as a fallback; an unreadable one yields nil.
 */
export const LUA_MSG_HEAD = `
local function msg_head(raw)
  local id, tokens = string.match(raw, '^{"id":"([^"]*)","role":"[a-z]+","tokens":(%d+)')
  if id then return id, tonumber(tokens) end
  local ok, msg = pcall(cjson.decode, raw)
  if ok and type(msg) == 'table' and type(msg.id) == 'string' then return msg.id, tonumber(msg.tokens) or 0 end
  return nil, 0
end
`;
