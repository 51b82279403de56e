/**
 * @module The scheduled cleanup of expired sessions and decayed facts.
 */
export { CLEANUP_LEASE_MS, runCleanup, type CleanupCursor, type CleanupReport } from "./cleanup.ts";
