/** @module The Redis key layout: every session, user, tenant, audit and observability key, built from validated ids. */
import { isValidId } from "../memory/ids.ts";
import type { SessionRef } from "../memory/model.ts";
import { InvalidIdError } from "./errors.ts";

// One validator for the HTTP edge and the stores: re-exported so both import the same rule.
/** Every key of this service starts with this prefix. */
export const KEY_PREFIX = "am";

/** Throws {@link InvalidIdError} unless `value` is a valid identifier; returns it otherwise. */
export function assertId(kind: string, value: unknown): string {
  if (!isValidId(value)) throw new InvalidIdError(kind);
  return value;
}

/** The per-session keys, in the order the Lua scripts expect them in `KEYS`. */
export interface SessionKeys {
  sys: string;
  win: string;
  sum: string;
  meta: string;
  arc: string;
  ids: string;
  notes: string;
  pad: string;
  lock: string;
  /** Turn outcomes by idempotency key (see AppendOptions.turn). */
  turns: string;
}

const tenantPrefix = (tenant: string): string => `${KEY_PREFIX}:${assertId("tenant", tenant)}:`;

/** Builds every key of one session; validates both ids (defense in depth behind the HTTP edge). */
export function sessionKeys(ref: SessionRef): SessionKeys {
  const base = `${tenantPrefix(ref.tenant)}s:${assertId("sessionId", ref.sessionId)}:`;
  return {
    sys: `${base}sys`,
    win: `${base}win`,
    sum: `${base}sum`,
    meta: `${base}meta`,
    arc: `${base}arc`,
    ids: `${base}ids`,
    notes: `${base}notes`,
    pad: `${base}pad`,
    lock: `${base}lock`,
    turns: `${base}turns`,
  };
}

/** `am:{t}:sessions` - every session of a tenant by last activity. */
export function tenantSessionsKey(tenant: string): string {
  return `${tenantPrefix(tenant)}sessions`;
}

/** `am:{t}:u:{u}:sessions` - one user's sessions by last activity. */
export function userSessionsKey(tenant: string, userId: string): string {
  return `${tenantPrefix(tenant)}u:${assertId("userId", userId)}:sessions`;
}

/** `am:{t}:owners` - session id -> owner, so an expired session also leaves its owner's index. */
export function ownersKey(tenant: string): string {
  return `${tenantPrefix(tenant)}owners`;
}

/** The tenant sets that list users with queued facts or recall counts (for the cron). */
export function tenantUserSets(tenant: string): { pendingUsers: string; recallUsers: string } {
  const t = tenantPrefix(tenant);
  return { pendingUsers: `${t}pending-users`, recallUsers: `${t}recall-users` };
}

/** The per-user records beside the sessions, and the tenant sets that list users having some. */
export function userRecordKeys(
  tenant: string,
  userId: string,
): { tombstone: string; pending: string; recalls: string; pendingUsers: string; recallUsers: string } {
  const u = `${tenantPrefix(tenant)}u:${assertId("userId", userId)}:`;
  return { tombstone: `${u}erased`, pending: `${u}pending`, recalls: `${u}recalls`, ...tenantUserSets(tenant) };
}

/**
 * Prefix and suffix Lua uses to build keys from ids it reads from Redis (the owner's user index,
 * the meta key of an index member). Those ids were validated when they were written.
 */
export function luaKeyParts(tenant: string): { userPrefix: string; userSuffix: string; sessionPrefix: string; metaSuffix: string } {
  const t = tenantPrefix(tenant);
  return { userPrefix: `${t}u:`, userSuffix: ":sessions", sessionPrefix: `${t}s:`, metaSuffix: ":meta" };
}

/** `am:{t}:obs:...` - traces and metrics of a tenant (nothing a session read or write touches). */
export function observeKey(tenant: string, ...parts: string[]): string {
  return `${tenantPrefix(tenant)}obs:${parts.join(":")}`;
}

/**
 * `am:{t}:audit` (security events) and `am:{t}:audit:activity` (high-volume writes) - the tenant's
 * audit logs, sorted by time and capped each - and the throttle counter of one credential's minute
 * (the subject is hashed by the caller, see RedisAuditLog).
 */
export function auditKeys(tenant: string, minute: number, subject = ""): { security: string; activity: string; throttle: string } {
  const t = tenantPrefix(tenant);
  return { security: `${t}audit`, activity: `${t}audit:activity`, throttle: `${t}audit:throttle:${Math.floor(minute)}:${subject}` };
}

/** `am:{t}:u:{u}:erase-job` - the running erase of a user (receipt id, counts so far). */
export function eraseJobKey(tenant: string, userId: string): string {
  return `${tenantPrefix(tenant)}u:${assertId("userId", userId)}:erase-job`;
}

/** `am:{t}:u:{u}:erase-receipt` - the user's last finished erase (receipt id, totals), for replays. */
export function eraseReceiptKey(tenant: string, userId: string): string {
  return `${tenantPrefix(tenant)}u:${assertId("userId", userId)}:erase-receipt`;
}

/** `am:{t}:obs:tru:{u}` - ids of the user's stored traces (an erase deletes them). */
export function userTracesKey(tenant: string, userId: string): string {
  return observeKey(tenant, "tru", assertId("userId", userId));
}

/** `am:{t}:u:{u}:content` - which content ids and fact ids the user's long-term facts use (see ContentIndex). */
export function contentIndexKey(tenant: string, userId: string): string {
  return `${tenantPrefix(tenant)}u:${assertId("userId", userId)}:content`;
}

/**
 * `am:{t}:u:{u}:learn-lock` (the owner token of the user's running learning turn) and
 * `am:{t}:u:{u}:learned` (ids of facts recent learning turns wrote, by time): see RedisLearningLocks.
 */
export function learningKeys(tenant: string, userId: string): { lock: string; written: string } {
  const u = `${tenantPrefix(tenant)}u:${assertId("userId", userId)}:`;
  return { lock: `${u}learn-lock`, written: `${u}learned` };
}

/**
 * The cron's keys: deployment-wide, without a tenant, since one cron serves every tenant
 * (`_system` cannot collide with a tenant: ids start with a letter or digit). `am:_system:cleanup`,
 * `:backup` and `:reseal` hold where the cleanup, backup and re-seal runs resume;
 * `am:_system:cleanup-lock` the owner token of the running cleanup (see RedisRunLock).
 */
export const CRON_KEYS = {
  cleanupCursor: `${KEY_PREFIX}:_system:cleanup`,
  backupCursor: `${KEY_PREFIX}:_system:backup`,
  resealCursor: `${KEY_PREFIX}:_system:reseal`,
  cleanupLock: `${KEY_PREFIX}:_system:cleanup-lock`,
} as const;
