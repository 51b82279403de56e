/**
 * One page of the tenant-index sweep: drops index entries whose session meta has expired.
 * Walks by rank, oldest activity first (the likeliest to have expired).
 *
 * KEYS: tenantIndex
 * ARGV: offset limit sessionPrefix metaSuffix
 */
export const SWEEP_LUA = `
local off, lim = tonumber(ARGV[1]), tonumber(ARGV[2])
local members = redis.call('ZRANGE', KEYS[1], off, off + lim - 1)
local removed = {}
for _, m in ipairs(members) do
  if redis.call('EXISTS', ARGV[3] .. m .. ARGV[4]) == 0 then
    redis.call('ZREM', KEYS[1], m)
    removed[#removed + 1] = m
  end
end
return cjson.encode({ scanned = #members, removed = removed })
`;
