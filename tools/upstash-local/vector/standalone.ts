/** @module Starts the Vector emulator alone on its own listener, for tests and benchmarks. */
import { serveStandalone, type Standalone, type StandaloneAddress } from "../standalone.ts";
import { createVectorService, type VectorService, type VectorServiceOptions } from "./index.ts";

/** Options of {@link startVectorEmulator}: the service options plus where to listen. */
export interface VectorEmulatorOptions extends Partial<VectorServiceOptions>, StandaloneAddress {}

export type VectorEmulator = Standalone<VectorService>;

/** Starts only the Vector emulator on its own listener (tests, benchmarks). Token default `local-dev-token`. */
export async function startVectorEmulator(options: VectorEmulatorOptions = {}): Promise<VectorEmulator> {
  const token = options.token ?? "local-dev-token";
  const service = await createVectorService({ ...options, token });
  return serveStandalone(service, token, options);
}
