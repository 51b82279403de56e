/** @module Serves one emulator service on its own listener, for tests and benchmarks. */
import { startListener, type Listener, type RestHandler } from "./listener.ts";

/** Where a single emulator listens. */
export interface StandaloneAddress {
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port. Default 0 (a free port). */
  port?: number;
}

export interface Standalone<S> {
  url: string;
  token: string;
  listener: Listener;
  service: S;
  close(): Promise<void>;
}

/** Serves one emulator service on its own listener (tests, benchmarks). */
export async function serveStandalone<S extends { handler: RestHandler; close(): Promise<void> }>(
  service: S,
  token: string,
  address: StandaloneAddress,
): Promise<Standalone<S>> {
  const listener = await startListener({ host: address.host, port: address.port ?? 0, handler: service.handler });
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
