/**
 * @module The compare-and-delete that releases a lock taken by `SET NX PX` (a session's compression
 * lock, the cron's run lock).
 */

/**
 * Releases the lock only when `token` still holds it (compare-and-delete), so a holder whose lock
 * expired never deletes the next holder's lock.
 *
 * KEYS: lock
 * ARGV: token
 */
export const UNLOCK_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
