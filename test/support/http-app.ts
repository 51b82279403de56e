import { Hono } from "hono";
import type { Principal } from "../../src/memory/access/index.ts";
import type { Trace } from "../../src/memory/observe/index.ts";
import type { AppEnv, HttpConfig, RequestRuntime } from "../../src/http/context-types.ts";
import { renderError } from "../../src/http/on-error.ts";

/**
 * A Hono app with the request variables the HTTP layer's helpers and middleware read (runtime,
 * principal), for testing them in process: no Worker, no stores. Errors render as the real app
 * renders them. Only what these helpers use is real; a call to the rest of the runtime throws.
 */
export interface TestHttp {
  app: Hono<AppEnv>;
  /** Work handed to `runtime.background`, in order. */
  background: Promise<unknown>[];
  errors: { message: string; fields: unknown }[];
  /** The trace `observe.inlineTrace` returns; the traces begun are recorded in `begun`. */
  inline: { trace: Trace | null; begun: unknown[][] };
}

export const FULL_KEY: Principal = { kind: "key", tenant: "acme", keyId: "k1", role: "full" };

export const tokenPrincipal = (userId: string, scopes: ("read" | "write" | "chat")[] = ["read", "write", "chat"]): Principal => ({
  kind: "token",
  tenant: "acme",
  tokenId: "t1",
  userId,
  sessionId: null,
  scopes,
});

export function testHttp(options: { principal?: Principal; config?: Partial<HttpConfig> } = {}): TestHttp {
  const background: Promise<unknown>[] = [];
  const errors: TestHttp["errors"] = [];
  const inline: TestHttp["inline"] = { trace: null, begun: [] };
  const unused = (): never => {
    throw new Error("not part of the test runtime");
  };
  const runtime: RequestRuntime = {
    config: { apiKeys: [], tokenSecret: undefined, corsOrigins: [], limits: { maxBodyBytes: 1024 }, ...options.config },
    memory: unused,
    rateLimiter: null,
    health: unused,
    background: (work) => background.push(work),
    observe: {
      set tenant(_tenant: string) {},
      trace: { traceId: null },
      beginTrace: (...args) => {
        inline.begun.push(args);
        return "tr1";
      },
      inlineTrace: () => inline.trace,
      finish: () => undefined,
    },
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: (message, fields) => errors.push({ message, fields }),
    },
  };
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set("runtime", runtime);
    c.set("principal", options.principal ?? FULL_KEY);
    await next();
  });
  app.onError((err, c) => renderError(err, c));
  return { app, background, errors, inline };
}
