import { randomUUID } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { inject } from "vitest";

/** One backend the Redis REST emulator can run on. */
export interface RedisVariant {
  name: string;
  /** Set for the real-Redis variant; undefined means the embedded engine. */
  redisUrl: string | undefined;
}

/**
 * The real Redis this run picked once for every suite (test/support/test-redis.ts: REDIS_URL, else an
 * own redis-server, else none); undefined when there is none.
 */
export const REAL_REDIS_URL: string | undefined = inject("testRedisUrl") || undefined;

/** The embedded engine always, and the run's real Redis when it has one. */
export async function redisVariants(): Promise<RedisVariant[]> {
  const variants: RedisVariant[] = [{ name: "embedded engine", redisUrl: undefined }];
  if (REAL_REDIS_URL !== undefined) variants.push({ name: `real Redis (${REAL_REDIS_URL})`, redisUrl: REAL_REDIS_URL });
  return variants;
}

/** A key prefix unique to this run, so runs against a shared Redis never collide. */
export function uniquePrefix(label: string): string {
  return `upstash-local-test:${label}:${randomUUID()}:`;
}

/** Deletes every key under `prefix` (SCAN, never FLUSHDB: the real Redis may be shared). */
export async function deleteByPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, { match: `${prefix}*`, count: 1000 });
    if (keys.length > 0) await redis.del(...keys);
    cursor = String(next);
  } while (cursor !== "0");
}

export interface RawResponse {
  status: number;
  headers: Headers;
  json: unknown;
}

/** Sends one raw HTTP request to the emulator and parses the JSON answer. */
export async function rawRequest(
  url: string,
  init: {
    method?: string;
    path?: string;
    token?: string | undefined;
    body?: string | Buffer;
    headers?: Record<string, string>;
  },
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(`${url}${init.path ?? "/"}`, {
    method: init.method ?? "POST",
    headers,
    body: typeof init.body === "string" || init.body === undefined ? init.body : new Uint8Array(init.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text === "" ? undefined : (JSON.parse(text) as unknown),
  };
}
