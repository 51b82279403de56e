import { startListener, type Listener } from "../listener.ts";
import { createVectorService, type VectorService, type VectorServiceOptions } from "./index.ts";

/** Options of {@link startVectorEmulator}: the service options plus where to listen. */
export interface VectorEmulatorOptions extends Partial<VectorServiceOptions> {
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port. Default 0 (a free port). */
  port?: number;
}

export interface VectorEmulator {
  url: string;
  token: string;
  listener: Listener;
  service: VectorService;
  close(): Promise<void>;
}

/** Starts only the Vector emulator on its own listener (tests, benchmarks). Token default `local-dev-token`. */
export async function startVectorEmulator(options: VectorEmulatorOptions = {}): Promise<VectorEmulator> {
  const token = options.token ?? "local-dev-token";
  const service = await createVectorService({ ...options, token });
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
