import { Redis } from "@upstash/redis/cloudflare";
import { env } from "cloudflare:test";

const bindings = env as unknown as { UPSTASH_REDIS_REST_URL: string; UPSTASH_REDIS_REST_TOKEN: string };

/** A client on the same Redis the Worker uses, to look at keys directly. */
export const testRedis = new Redis({
  url: bindings.UPSTASH_REDIS_REST_URL,
  token: bindings.UPSTASH_REDIS_REST_TOKEN,
  enableTelemetry: false,
});

/** TTL in seconds of every key of one session, by key suffix (`sys`, `win`, `meta`...). */
export async function sessionKeyTtls(tenant: string, sessionId: string): Promise<Record<string, number>> {
  const prefix = `am:${tenant}:s:${sessionId}:`;
  const keys = await testRedis.keys(`${prefix}*`);
  const ttls = await Promise.all(keys.map((key) => testRedis.ttl(key)));
  return Object.fromEntries(keys.map((key, i) => [key.slice(prefix.length), ttls[i] ?? -3]));
}

/** Sets the TTL of every key of one session to `seconds`. */
export async function shortenSessionTtl(tenant: string, sessionId: string, seconds: number): Promise<void> {
  const keys = await testRedis.keys(`am:${tenant}:s:${sessionId}:*`);
  await Promise.all(keys.map((key) => testRedis.expire(key, seconds)));
}
