import { InvalidStoreInput } from "./errors.ts";
import { luaKeyParts, tenantSessionsKey } from "./keys.ts";
import { SWEEP_LUA } from "./lua/sweep.ts";
import { asStrings, decodeReply, num } from "./reply.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

/** Options of {@link sweepSessionIndex}. */
export interface SweepOptions {
  /** Where to continue; `""` or `"0"` starts at the oldest entry. Default `""`. */
  cursor?: string | undefined;
  /** Index entries examined per call (one round trip). Default 200. */
  limit?: number | undefined;
}

export interface SweepResult {
  /** Pass to the next call; `""` when the sweep reached the end of the index. */
  nextCursor: string;
  scanned: number;
  /** Session ids whose entries were removed (their meta key had expired). */
  removed: string[];
}

/**
 * Removes tenant-index entries of sessions that no longer exist (their keys expired), one page
 * per call, oldest activity first. Entries removed during a page shift the ranks, so the cursor
 * advances by the entries that were kept. Concurrent writes reorder the index; a skipped entry is
 * caught by the next run.
 */
export async function sweepSessionIndex(redis: RedisClient, tenant: string, options: SweepOptions = {}): Promise<SweepResult> {
  const offset = options.cursor ? Number(options.cursor) : 0;
  const limit = options.limit ?? 200;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new InvalidStoreInput("invalid sweep cursor");
  if (!Number.isSafeInteger(limit) || limit <= 0) throw new InvalidStoreInput("sweep limit must be a positive integer");
  const parts = luaKeyParts(tenant);
  const reply = decodeReply(
    await new ScriptRunner(redis).run(SWEEP_LUA, [tenantSessionsKey(tenant)], [String(offset), String(limit), parts.sessionPrefix, parts.metaSuffix]),
    "sweepSessionIndex",
  );
  const scanned = num(reply.scanned);
  const removed = asStrings(reply.removed);
  return { nextCursor: scanned < limit ? "" : String(offset + scanned - removed.length), scanned, removed };
}
