/** @module The cron: one bounded cleanup (with the duplicate repair), re-seal and backup run, each resuming from a cursor kept in Redis. */
import type { Redis } from "@upstash/redis/cloudflare";
import { runCleanup, type CleanupCursor, type CleanupReport } from "../memory/maintenance/index.ts";
import { loadConfig, type Config } from "./config/parse.ts";
import { jsonLogger } from "./log.ts";
import { adaptersFor, backupsFor, type Adapters } from "./wiring.ts";
import { runBackups } from "../memory/facts/index.ts";
import { EMPTY_RESEAL_CURSOR, runReseal, type ResealCursor } from "../stores/sealed/reseal.ts";
import { CRON_KEYS } from "../stores/keys.ts";

/** Where the cleanup resumes (its run lock is `CRON_KEYS.cleanupLock`, beside it). */
export const CLEANUP_CURSOR_KEY = CRON_KEYS.cleanupCursor;
/** The last user the backup run visited. */
export const BACKUP_CURSOR_KEY = CRON_KEYS.backupCursor;
/** Where the re-seal after a key rotation resumes. */
export const RESEAL_CURSOR_KEY = CRON_KEYS.resealCursor;

/** Where a run resumes: loaded before it, saved after it. */
interface StoredCursor<T> {
  load(): Promise<T>;
  save(cursor: T): Promise<void>;
}

/**
 * A cursor kept as JSON under one Redis key. `read` turns what is stored (null when nothing is)
 * into the cursor, falling back when it is not the expected shape; `stored` is what is written.
 */
function storedCursor<T>(
  redis: Redis,
  key: string,
  read: (saved: unknown) => T,
  stored: (cursor: T) => unknown = (cursor) => cursor,
): StoredCursor<T> {
  return {
    load: async () => read(await redis.get<unknown>(key)),
    save: async (cursor) => {
      await redis.set(key, JSON.stringify(stored(cursor)));
    },
  };
}

/**
 * The cron entry point: one bounded cleanup run (session indexes, queued facts, recall counts,
 * expired and decayed facts, relations left with several current facts), resuming from the cursor the previous run saved. Logs what it did.
 * A run that finds another one holding the cleanup's run lock does nothing (no re-seal or backup
 * either: the run holding it does them) and logs that it skipped.
 */
export async function runScheduled(env: object, scheduledTime: number): Promise<CleanupReport | null> {
  const config = loadConfig(env);
  const adapters = adaptersFor(config);
  const { redis, cleanupLock } = adapters;
  if (!redis || !cleanupLock) {
    jsonLogger.warn("cleanup skipped: Redis is not configured");
    return null;
  }
  const started = Date.now();
  const cursor = storedCursor<CleanupCursor | null>(redis, CLEANUP_CURSOR_KEY, (saved) =>
    saved && typeof saved === "object" ? (saved as CleanupCursor) : null,
  );
  let report: CleanupReport;
  try {
    report = await runCleanup({
      runLock: cleanupLock,
      newId: () => crypto.randomUUID(),
      sessions: adapters.sessions,
      users: adapters.users,
      facts: adapters.facts,
      tenants: tenantsOf(config),
      loadCursor: cursor.load,
      saveCursor: cursor.save,
      options: config.memory,
      relationKeys: adapters.deps.relationKeys,
      learningLocks: adapters.deps.learningLocks,
      batch: config.cleanupBatch,
      now: scheduledTime,
      // The re-seal and the backups run under the same lease: an overlapping run does neither.
      thenHolding: async (done) => {
        const log = done.errors.length > 0 ? jsonLogger.warn : jsonLogger.info;
        log("cleanup run", { ms: Date.now() - started, ...done });
        if (adapters.cipher.rotating) await resealRun(config, adapters);
        await backupRun(env, config, adapters, scheduledTime);
      },
    });
  } catch (err) {
    // Only the run lock or the cursor (Redis) gets here (the re-seal and backups log their own
    // failures); the next run starts from the last saved cursor.
    jsonLogger.error("cleanup run failed", { ms: Date.now() - started, error: String(err) });
    return null;
  }
  if (report.skipped === "locked") {
    jsonLogger.warn("cleanup skipped: another cleanup run holds the run lock", { ms: Date.now() - started, skipped: report.skipped });
    return report;
  }
  return report;
}

/** One bounded backup run (snapshots of users' facts to the `BACKUPS` bucket); off without the binding. */
async function backupRun(env: object, config: Config, adapters: Adapters, scheduledTime: number): Promise<void> {
  const backups = backupsFor(env, config, adapters);
  const { redis, facts } = adapters;
  if (!backups || !redis || !facts) return;
  const started = Date.now();
  const cursor = storedCursor(
    redis,
    BACKUP_CURSOR_KEY,
    (saved) => {
      const after = (saved as { after?: unknown } | null)?.after;
      return typeof after === "string" ? after : "";
    },
    (after) => ({ after }),
  );
  try {
    const report = await runBackups({
      facts,
      users: adapters.users,
      backups,
      tenants: tenantsOf(config),
      loadCursor: cursor.load,
      saveCursor: cursor.save,
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
  const cursor = storedCursor(redis, RESEAL_CURSOR_KEY, (saved) => {
    const s = saved as ResealCursor | null;
    return s && typeof s === "object" && typeof s.redis === "object" ? s : EMPTY_RESEAL_CURSOR;
  });
  try {
    const run = await runReseal(
      { redis, vector: adapters.vector, cipher: adapters.cipher, tenants: tenantsOf(config), batch: config.cleanupBatch },
      await cursor.load(),
    );
    await cursor.save(run.cursor);
    jsonLogger.info("reseal run", { ms: Date.now() - started, kid: adapters.cipher.currentKid, ...run.report });
  } catch (err) {
    jsonLogger.error("reseal run failed", { ms: Date.now() - started, error: String(err) });
  }
}

const tenantsOf = (config: Config): string[] => [...new Set(config.apiKeys.map((k) => k.tenant))];
