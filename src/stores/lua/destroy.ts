/**
 * Deletes every key of a session and its entries in the tenant and user indexes.
 *
 * KEYS: sys win sum meta arc ids notes pad lock tenantIndex
 * ARGV: sessionId userPrefix userSuffix
 * Returns the number of session keys deleted (index entries do not count: a session whose keys
 * all expired no longer exists, even while its index entries wait for the sweep).
 */
export const DESTROY_LUA = `
local owner = redis.call('HGET', KEYS[4], 'userId')
local n = redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9])
redis.call('ZREM', KEYS[10], ARGV[1])
if owner then redis.call('ZREM', ARGV[2] .. owner .. ARGV[3], ARGV[1]) end
return n
`;
