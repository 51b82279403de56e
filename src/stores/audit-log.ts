/** @module RedisAuditLog: the tenant's audit log in two capped sorted sets (security, activity), with a per-credential throttle. */
import type { Redis } from "@upstash/redis";
import { type AuditEntry, AUDIT_FAILURES_PER_MINUTE, auditStream, throttleSubject } from "../memory/observe/index.ts";
import type { AuditLog } from "../memory/ports/index.ts";
import { InvalidStoreInput } from "./errors.ts";
import { auditKeys } from "./keys.ts";
import { AUDIT_APPEND_LUA } from "./lua/audit.ts";
import { ScriptRunner, type RedisClient } from "./scripts.ts";

export interface RedisAuditLogOptions {
  /**
   * Entries kept per tenant and stream (security events, high-volume writes); the oldest go first.
   * @default 10000
   */
  maxEntries?: number;
}

/** Entries read past `limit` so a page can end on a millisecond boundary. */
const TIE_SLACK = 50;

/** {@link AuditLog} on Upstash Redis: two sorted sets per tenant (security, activity), scored by time and capped each. */
export class RedisAuditLog implements AuditLog {
  readonly #redis: Pick<Redis, "createScript" | "zrange">;
  readonly #scripts: ScriptRunner;
  readonly #max: number;

  constructor(redis: RedisClient & Pick<Redis, "zrange">, options: RedisAuditLogOptions = {}) {
    this.#redis = redis;
    this.#scripts = new ScriptRunner(redis);
    this.#max = options.maxEntries ?? 10_000;
    if (!Number.isSafeInteger(this.#max) || this.#max <= 0) throw new InvalidStoreInput("maxEntries must be a positive integer");
  }

  async append(tenant: string, entry: AuditEntry, options: { throttle?: boolean } = {}): Promise<void> {
    const keys = auditKeys(tenant, entry.ts / 60_000, subjectKeyPart(throttleSubject(entry.actor)));
    const limit = options.throttle ? AUDIT_FAILURES_PER_MINUTE : 0;
    const log = auditStream(entry.action) === "security" ? keys.security : keys.activity;
    await this.#scripts.run(
      AUDIT_APPEND_LUA,
      [log, keys.throttle],
      [String(entry.ts), JSON.stringify(entry), String(this.#max), String(limit)],
    );
  }

  async list(tenant: string, query: { since: number; limit: number }): Promise<AuditEntry[]> {
    const { security, activity } = auditKeys(tenant, 0);
    const page = (log: string) =>
      this.#redis.zrange<unknown[]>(log, `(${query.since}`, "+inf", { byScore: true, offset: 0, count: query.limit + TIE_SLACK });
    const [a, b] = await Promise.all([page(security), page(activity)]);
    // Each stream is cut at limit + slack: merged, the first limit + slack are exact.
    const entries = [...a, ...b]
      .map(parseEntry)
      .filter((e): e is AuditEntry => e !== null)
      .sort((x, y) => x.ts - y.ts)
      .slice(0, query.limit + TIE_SLACK);
    if (entries.length <= query.limit) return entries;
    const lastTs = entries[query.limit - 1]!.ts;
    let end = query.limit;
    while (end < entries.length && entries[end]!.ts === lastTs) end++;
    return entries.slice(0, end);
  }
}

/** A credential id as a key part: ids this service made are short and plain; anything else counts as one. */
function subjectKeyPart(subject: string): string {
  return /^[A-Za-z0-9_.:-]{1,100}$/.test(subject) ? subject : "other";
}

function parseEntry(raw: unknown): AuditEntry | null {
  let value = raw;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof value !== "object" || value === null || !("ts" in value) || typeof value.ts !== "number") return null;
  return value as AuditEntry;
}
