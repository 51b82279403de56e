import { runCleanup, type CleanupCursor, type CleanupReport } from "../memory/maintenance/index.ts";
import { loadConfig } from "./config.ts";
import { jsonLogger } from "./log.ts";
import { adaptersFor, backupsFor, type Adapters } from "./runtime.ts";
import { runBackups } from "../memory/facts/index.ts";
import { EMPTY_RESEAL_CURSOR, runReseal, type ResealCursor } from "../stores/sealed/reseal.ts";
import type { Config } from "./config.ts";

/** Where the cleanup resumes; `_system` cannot collide with a tenant (ids start alphanumeric). */
export const CLEANUP_CURSOR_KEY = "am:_system:cleanup";
/** The last user the backup run visited. */
export const BACKUP_CURSOR_KEY = "am:_system:backup";
/** Where the re-seal after a key rotation resumes. */
export const RESEAL_CURSOR_KEY = "am:_system:reseal";

/**
 * The cron entry point: one bounded cleanup run (session indexes, queued facts, recall counts,
 * expired and decayed facts), resuming from the cursor the previous run saved. Logs what it did.
 */
export async function runScheduled(env: object, scheduledTime: number): Promise<CleanupReport | null> {
  const config = loadConfig(env);
  const adapters = adaptersFor(config);
  const redis = adapters.redis;
  if (!redis) {
    jsonLogger.warn("cleanup skipped: Redis is not configured");
    return null;
  }
  const started = Date.now();
  let report: CleanupReport;
  try {
    report = await runCleanup({
      sessions: adapters.sessions,
      users: adapters.users,
      facts: adapters.facts,
      tenants: tenantsOf(config),
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
    jsonLogger.error("cleanup run failed", { ms: Date.now() - started, error: String(err) });
    return null;
  }
  const log = report.errors.length > 0 ? jsonLogger.warn : jsonLogger.info;
  log("cleanup run", { ms: Date.now() - started, ...report });
  if (adapters.cipher.rotating) await resealRun(config, adapters);
  await backupRun(env, config, adapters, scheduledTime);
  return report;
}

/** One bounded backup run (snapshots of users' facts to the `BACKUPS` bucket); off without the binding. */
async function backupRun(env: object, config: Config, adapters: Adapters, scheduledTime: number): Promise<void> {
  const backups = backupsFor(env, config, adapters);
  const { redis, facts } = adapters;
  if (!backups || !redis || !facts) return;
  const started = Date.now();
  try {
    const report = await runBackups({
      facts,
      users: adapters.users,
      backups,
      tenants: tenantsOf(config),
      loadCursor: async () => {
        const saved = await redis.get<{ after?: unknown }>(BACKUP_CURSOR_KEY);
        return typeof saved?.after === "string" ? saved.after : "";
      },
      saveCursor: async (cursor) => {
        await redis.set(BACKUP_CURSOR_KEY, JSON.stringify({ after: cursor }));
      },
      takenAt: scheduledTime,
      intervalMs: config.backups.intervalSeconds * 1000,
      now: Date.now,
    });
    const log = report.errors.length > 0 ? jsonLogger.warn : jsonLogger.info;
    log("backup run", { ms: Date.now() - started, ...report });
  } catch (err) {
    jsonLogger.error("backup run failed", { ms: Date.now() - started, error: String(err) });
  }
}

/** One bounded re-seal run after a key rotation; failures are logged, the next run resumes. */
async function resealRun(config: Config, adapters: Adapters): Promise<void> {
  const redis = adapters.redis;
  if (!redis) return;
  const started = Date.now();
  try {
    const saved = await redis.get<ResealCursor>(RESEAL_CURSOR_KEY);
    const cursor = saved && typeof saved === "object" && typeof saved.redis === "object" ? saved : EMPTY_RESEAL_CURSOR;
    const run = await runReseal(
      { redis, vector: adapters.vector, cipher: adapters.cipher, tenants: tenantsOf(config), batch: config.cleanupBatch },
      cursor,
    );
    await redis.set(RESEAL_CURSOR_KEY, JSON.stringify(run.cursor));
    jsonLogger.info("reseal run", { ms: Date.now() - started, kid: adapters.cipher.currentKid, ...run.report });
  } catch (err) {
    jsonLogger.error("reseal run failed", { ms: Date.now() - started, error: String(err) });
  }
}

const tenantsOf = (config: Config): string[] => [...new Set(config.apiKeys.map((k) => k.tenant))];
