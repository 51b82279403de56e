import { createDeps } from "../deps.ts";
import { loadConfig } from "../config.ts";
import type { Bindings } from "../env.ts";
import { runCleanup, type CleanupCursor, type CleanupReport } from "../memory/cleanup.ts";
import { sweepSessionIndex } from "../stores/session-index.ts";

/** Where the cleanup resumes; `_system` cannot collide with a tenant (ids start alphanumeric). */
export const CLEANUP_CURSOR_KEY = "am:_system:cleanup";

/**
 * The cron entry point: one bounded sweep of expired and decayed facts and of the session index,
 * resuming from the cursor the previous run saved. Logs what it did.
 */
export async function runScheduled(env: Bindings, scheduledTime: number): Promise<CleanupReport | null> {
  const config = loadConfig(env);
  const deps = createDeps(config, undefined);
  const redis = deps.clients.redis;
  if (!redis) {
    console.warn(JSON.stringify({ level: "warn", msg: "cleanup skipped: Redis is not configured" }));
    return null;
  }
  const tenants = [...new Set(config.apiKeys.map((k) => k.tenant))];
  const started = Date.now();
  let report: CleanupReport;
  try {
    report = await runCleanup({
      facts: deps.facts,
      tenants,
      sweepSessions: (tenant, cursor) => sweepSessionIndex(redis, tenant, { cursor }),
      loadCursor: async () => {
        const raw = await redis.get<CleanupCursor>(CLEANUP_CURSOR_KEY);
        return raw && typeof raw === "object" ? raw : null;
      },
      saveCursor: async (cursor) => {
        await redis.set(CLEANUP_CURSOR_KEY, JSON.stringify(cursor));
      },
      options: config.memory,
      batch: config.cleanupBatch,
      now: scheduledTime,
    });
  } catch (err) {
    // Only loading or saving the cursor (Redis) gets here; the next run starts from the last saved one.
    console.error(JSON.stringify({ level: "error", msg: "cleanup run failed", ms: Date.now() - started, error: String(err) }));
    return null;
  }
  const level = report.errors.length > 0 ? "warn" : "info";
  console.log(JSON.stringify({ level, msg: "cleanup run", ms: Date.now() - started, ...report }));
  return report;
}
