/** @module The Upstash Redis and Vector clients, with a Worker's timeouts and retries. */
import { Redis } from "@upstash/redis/cloudflare";
import { Index } from "@upstash/vector/cloudflare";
import type { RestEndpoint } from "./config/parse.ts";

/**
 * Official Upstash clients with limits that suit a Worker: every request times out (a hung upstream
 * must not eat the 30 s waitUntil window) and network errors are retried once, not five times.
 */
export function createRedis(endpoint: RestEndpoint, timeoutMs: number): Redis {
  return new Redis({
    url: endpoint.url,
    token: endpoint.token,
    enableTelemetry: false,
    retry: { retries: 1, backoff: () => 50 },
    // A function, so an abort throws instead of being turned into a result.
    signal: () => AbortSignal.timeout(timeoutMs),
    // Every value the service stores is UTF-8 text (JSON, sealed base64url): the base64 the client
    // asks for by default only costs a decode of every reply, in JavaScript, on every request.
    responseEncoding: false,
  });
}

export function createIndex(endpoint: RestEndpoint, timeoutMs: number): Index {
  return new Index({
    url: endpoint.url,
    token: endpoint.token,
    enableTelemetry: false,
    retry: { retries: 1, backoff: () => 50 },
    signal: () => AbortSignal.timeout(timeoutMs),
  });
}
