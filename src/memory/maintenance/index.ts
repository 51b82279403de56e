/**
 * @module The scheduled cleanup of expired sessions and decayed facts.
 */
export { runCleanup, type CleanupCursor, type CleanupReport } from "./cleanup.ts";
