import { startListener, type Listener } from "../listener.ts";
import { createRedisService, type RedisService, type RedisServiceOptions } from "./index.ts";

/** Options of {@link startRedisEmulator}: the service options plus where to listen. */
export interface RedisEmulatorOptions extends Partial<RedisServiceOptions> {
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port. Default 0 (a free port). */
  port?: number;
}

export interface RedisEmulator {
  url: string;
  token: string;
  listener: Listener;
  service: RedisService;
  close(): Promise<void>;
}

/** Starts only the Redis REST emulator on its own listener (tests, benchmarks). Token default `local-dev-token`. */
export async function startRedisEmulator(options: RedisEmulatorOptions = {}): Promise<RedisEmulator> {
  const token = options.token ?? "local-dev-token";
  const service = await createRedisService({ token, redisUrl: options.redisUrl, dataDir: options.dataDir });
  const listener = await startListener({ host: options.host, port: options.port ?? 0, handler: service.handler });
  return {
    url: listener.url,
    token,
    listener,
    service,
    async close() {
      await listener.close();
      await service.close();
    },
  };
}
