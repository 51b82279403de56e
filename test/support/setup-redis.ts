import type { TestProject } from "vitest/node";
import { acquireShared } from "./shared.ts";
import { acquireTestRedis, type TestRedis } from "./test-redis.ts";

/**
 * Global setup of the projects that test against the real Redis directly (conformance,
 * reliability): picks it once per run, says which in one line, and provides `testRedisUrl`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await sharedTestRedis();
  project.provide("testRedisUrl", redis.value.url ?? "");
  return redis.release;
}

/** The run's test Redis, picked (or spawned) once however many projects ask for it. */
export function sharedTestRedis(): Promise<{ value: TestRedis; release: () => Promise<void> }> {
  return acquireShared("test-redis", async () => {
    const redis = await acquireTestRedis();
    console.log(`Redis for tests: ${redis.summary}`);
    return { value: redis, close: () => redis.close() };
  });
}
