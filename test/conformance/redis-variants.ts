import { randomUUID } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { createRespBackend } from "../../tools/upstash-local/redis/resp/backend.ts";

/** One backend the Redis REST emulator can run on. */
export interface RedisVariant {
  name: string;
  /** Set for the real-Redis variant; undefined means the embedded engine. */
  redisUrl: string | undefined;
}

export const REAL_REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * The embedded engine always; the real Redis at REDIS_URL (default 127.0.0.1:6379) whenever it
 * answers PING. It runs in CI and on dev machines; leaving it out is only for a machine without it.
 */
export async function redisVariants(): Promise<RedisVariant[]> {
  const variants: RedisVariant[] = [{ name: "embedded engine", redisUrl: undefined }];
  try {
    const probe = await createRespBackend({ url: REAL_REDIS_URL, poolSize: 1, connectTimeoutMs: 1000 });
    await probe.close();
    variants.push({ name: `real Redis (${REAL_REDIS_URL})`, redisUrl: REAL_REDIS_URL });
  } catch (err) {
    console.warn(`No Redis answers at ${REAL_REDIS_URL}; only the embedded engine is tested: ${String(err)}`);
  }
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
