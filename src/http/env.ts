import type { Memory } from "../memory/memory.ts";
import type { Bindings } from "../worker/env.ts";
import type { Runtime } from "../worker/runtime.ts";

/** Builds a request's runtime from the Worker's bindings and execution context. */
export type RuntimeFactory = (
  env: object,
  ctx: { waitUntil(promise: Promise<unknown>): void } | undefined,
  request?: { requestId?: string; session?: string | undefined },
) => Runtime;

/** Per-request values set by middleware. */
export interface Variables {
  /** This request's id (the client's `X-Request-Id` when it sent a sane one); set first. */
  requestId: string;
  /** The session the request names (path or `X-Memory-Session`), when it is a valid id; for logs. */
  session: string | undefined;
  runtime: Runtime;
  /** The tenant the API key grants; set by the auth middleware. */
  tenant: string;
  /** The tenant's use cases; set by the auth middleware. */
  memory: Memory;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
