/** @module HTTP listener shared by both emulators: body reading, delay, fault injection, request log, `/__control/*` endpoints. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { FaultInjector } from "./faults.ts";

/** A request as the emulators see it: the body is the raw bytes, decoded once by the handler. */
export interface RestRequest {
  method: string;
  /** Path without the query string, e.g. `/pipeline` or `/upsert-data/ns`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RestResponse {
  status: number;
  headers?: Record<string, string>;
  /** Usually a JSON string. */
  body: string | Buffer;
}

export type RestHandler = (req: RestRequest) => Promise<RestResponse>;

export interface ListenerOptions {
  host?: string;
  /** 0 picks a free port. */
  port: number;
  handler: RestHandler;
  /** Fixed delay added to every request, in milliseconds. Default 0. */
  delayMs?: number;
  /** Largest accepted body in bytes. Default 10 MiB (Upstash's request limit). */
  maxBodyBytes?: number;
}

export interface RequestLogEntry {
  at: number;
  method: string;
  path: string;
  /** The request body as text (truncated to 2 KB) so tests can see which commands were sent. */
  body: string;
  /** Time the emulator spent answering (the added delay excluded), ms, once answered. */
  handlerMs?: number;
  /** Size of the answer's body, bytes, once answered. */
  responseBytes?: number;
}

export interface Listener {
  url: string;
  port: number;
  faults: FaultInjector;
  /** Requests served since start or since the last `resetLog()` (control requests excluded). */
  log: RequestLogEntry[];
  resetLog(): void;
  setDelay(ms: number): void;
  close(): Promise<void>;
}

const json = (status: number, value: unknown): RestResponse => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
});

/**
 * Starts an HTTP listener for one emulator. Adds the parts both emulators share: byte-exact body
 * reading, a fixed delay, fault injection, a request log, and the `/__control/*` endpoints:
 *
 * - `GET /__control/log` -> `{count, requests}`; `DELETE /__control/log` clears it
 * - `POST /__control/fault` `{mode: "error"|"drop"|"hang", durationMs?, count?}`; `DELETE` clears
 * - `POST /__control/delay` `{ms}`
 */
export async function startListener(options: ListenerOptions): Promise<Listener> {
  const host = options.host ?? "127.0.0.1";
  const maxBody = options.maxBodyBytes ?? 10 * 1024 * 1024;
  let delayMs = options.delayMs ?? 0;
  const faults = new FaultInjector();
  const log: RequestLogEntry[] = [];

  const control = async (req: RestRequest): Promise<RestResponse> => {
    const sub = req.path.slice("/__control".length);
    const parsed = (): Record<string, unknown> => {
      try {
        const value: unknown = JSON.parse(req.body.toString("utf8") || "{}");
        return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
      } catch {
        return {};
      }
    };
    if (sub === "/log" && req.method === "GET") return json(200, { count: log.length, requests: log });
    if (sub === "/log" && req.method === "DELETE") {
      log.length = 0;
      return json(200, { ok: true });
    }
    if (sub === "/fault" && req.method === "POST") {
      const b = parsed();
      const mode = b.mode;
      if (mode !== "error" && mode !== "drop" && mode !== "hang") {
        return json(400, { error: "mode must be error, drop or hang" });
      }
      faults.set({
        mode,
        durationMs: typeof b.durationMs === "number" ? b.durationMs : undefined,
        count: typeof b.count === "number" ? b.count : undefined,
      });
      return json(200, { ok: true });
    }
    if (sub === "/fault" && req.method === "DELETE") {
      faults.clear();
      return json(200, { ok: true });
    }
    if (sub === "/delay" && req.method === "POST") {
      const ms = parsed().ms;
      if (typeof ms !== "number" || ms < 0) return json(400, { error: "ms must be a number >= 0" });
      delayMs = ms;
      return json(200, { ok: true });
    }
    return json(404, { error: "unknown control endpoint" });
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBody) {
        tooLarge = true;
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => res.destroy());
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://localhost");
        const request: RestRequest = {
          method: (req.method ?? "GET").toUpperCase(),
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks),
        };
        let response: RestResponse;
        let entry: RequestLogEntry | undefined;
        if (request.path.startsWith("/__control/")) {
          response = await control(request);
        } else {
          entry = {
            at: Date.now(),
            method: request.method,
            path: request.path,
            body: request.body.subarray(0, 2048).toString("utf8"),
          };
          log.push(entry);
          if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
          const fault = faults.take();
          if (fault === "drop") {
            res.socket?.destroy();
            return;
          }
          if (fault === "hang") return; // never answers; the client's timeout must handle it
          if (fault === "error") {
            response = json(500, { error: "ERR injected fault" });
          } else if (tooLarge) {
            response = json(413, { error: `ERR max request size exceeded (${maxBody} bytes)` });
          } else {
            try {
              const started = performance.now();
              response = await options.handler(request);
              entry.handlerMs = performance.now() - started;
            } catch (err) {
              response = json(500, { error: `ERR internal: ${(err as Error).message}` });
            }
          }
        }
        if (entry) entry.responseBytes = Buffer.byteLength(response.body);
        res.writeHead(response.status, response.headers);
        res.end(response.body);
      })();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    faults,
    log,
    resetLog: () => {
      log.length = 0;
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
