/** @module Starts the Redis REST emulator alone on its own listener, for tests and benchmarks. */
import { serveStandalone, type Standalone, type StandaloneAddress } from "../standalone.ts";
import { createRedisService, type RedisService, type RedisServiceOptions } from "./index.ts";

/** Options of {@link startRedisEmulator}: the service options plus where to listen. */
export interface RedisEmulatorOptions extends Partial<RedisServiceOptions>, StandaloneAddress {}

export type RedisEmulator = Standalone<RedisService>;

/** Starts only the Redis REST emulator on its own listener (tests, benchmarks). Token default `local-dev-token`. */
export async function startRedisEmulator(options: RedisEmulatorOptions = {}): Promise<RedisEmulator> {
  const token = options.token ?? "local-dev-token";
  const service = await createRedisService({ token, redisUrl: options.redisUrl, dataDir: options.dataDir });
  return serveStandalone(service, token, options);
}
