/** @module The Lua scripts that read a session snapshot (whole, bounded, one page, or the head a compression folds) and its owner. */
import { LUA_SNAPSHOT } from "./common.ts";

/**
 * Reads a session atomically: pinned system messages, summary, meta (which holds the settings
 * fields and the window's running totals) and the window: all of it, or with a bound only the
 * newest messages a context can use, so the reply's size follows the budget, not the history.
 *
 * KEYS: sys win sum meta
 * ARGV: allowance limit threshold ('' allowance = the whole window)
 */
export const READ_LUA = `${LUA_SNAPSHOT}
local bound = nil
if ARGV[1] ~= nil and ARGV[1] ~= '' then
  bound = { allowance = tonumber(ARGV[1]), limit = tonumber(ARGV[2]), threshold = tonumber(ARGV[3]) }
end
return encode_snap(snapshot(KEYS[1], KEYS[2], KEYS[3], KEYS[4], bound))
`;

/**
 * The snapshot with one page of the window, `offset` counted from the oldest message.
 *
 * KEYS: sys win sum meta
 * ARGV: offset limit
 */
export const READ_PAGE_LUA = `${LUA_SNAPSHOT}
local snap = session_base(KEYS[1], KEYS[2], KEYS[3], KEYS[4])
local off, lim = tonumber(ARGV[1]), tonumber(ARGV[2])
snap.win = redis.call('LRANGE', KEYS[2], off, off + lim - 1)
snap.wstart = off
return encode_snap(snap)
`;

/**
 * The snapshot with the window's oldest messages, from the first, while they hold at most
 * `maxTokens` and number at most `maxMessages` (at least one), plus the message after them when
 * there is one: what one compression pass folds, whatever the window's length.
 *
 * KEYS: sys win sum meta
 * ARGV: maxTokens maxMessages
 */
export const READ_HEAD_LUA = `${LUA_SNAPSHOT}
local snap = session_base(KEYS[1], KEYS[2], KEYS[3], KEYS[4])
local max_tokens, max_msgs = tonumber(ARGV[1]), tonumber(ARGV[2])
local head, tokens, i = {}, 0, 0
local over = false
while not over and i < snap.wcount do
  local chunk = redis.call('LRANGE', KEYS[2], i, i + 63)
  if #chunk == 0 then break end
  for _, raw in ipairs(chunk) do
    local _, t = msg_head(raw)
    head[#head + 1] = raw
    -- the first message past a limit comes back as the lookahead
    if #head > 1 and (#head > max_msgs or tokens + t > max_tokens) then over = true break end
    tokens = tokens + t
  end
  i = i + #chunk
end
snap.win = head
return encode_snap(snap)
`;

/** The session's stored owner; '' for a session nobody owns, false for none at all. KEYS: meta. */
export const OWNER_LUA = `local owner = redis.call('HGET', KEYS[1], 'userId')
if owner then return owner end
if redis.call('EXISTS', KEYS[1]) == 1 then return '' end
return false`;
