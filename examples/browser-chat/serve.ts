import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { fileURLToPath } from "node:url";

/**
 * Serves the browser chat page and forwards `/v1/*` and `/healthz` to the API, so the page and the
 * API share one origin (no CORS needed). Streams pass through as they arrive.
 *
 *   npm run dev                  # in another terminal (with OPENAI_API_KEY or OPENAI_BASE_URL set)
 *   npm run example:browser      # then open the URL it prints; EXAMPLE_PORT and AGENT_MEMORY_URL move it
 */
const env = process.env;
const api = (env.AGENT_MEMORY_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
const port = Number(env.EXAMPLE_PORT ?? 8788);
const file = (name: string): string => readFileSync(fileURLToPath(new URL(name, import.meta.url)), "utf8");
const PAGES: Record<string, { type: string; body: string }> = {
  "/": { type: "text/html; charset=utf-8", body: file("./index.html") },
  "/chat.js": { type: "text/javascript; charset=utf-8", body: file("./chat.js") },
};

async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = new Headers();
  for (const name of ["authorization", "content-type", "accept"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const body = hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined;
  const upstream = await fetch(`${api}${req.url ?? "/"}`, { method: req.method, headers, body, duplex: "half" } as RequestInit);
  const passed: Record<string, string> = {};
  upstream.headers.forEach((value, name) => {
    if (name === "content-type" || name === "retry-after" || name.startsWith("x-memory-")) passed[name] = value;
  });
  res.writeHead(upstream.status, passed);
  if (upstream.body === null) return void res.end();
  Readable.fromWeb(upstream.body as NodeReadableStream<Uint8Array>).pipe(res);
}

const server = createServer((req, res) => {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const page = req.method === "GET" ? PAGES[path] : undefined;
  if (page) {
    res.writeHead(200, { "content-type": page.type, "cache-control": "no-store" });
    return void res.end(page.body);
  }
  if (path.startsWith("/v1/") || path === "/healthz") {
    return void forward(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "api_unreachable", message: `${api} did not answer: ${(err as Error).message}` } }));
    });
  }
  res.writeHead(404, { "content-type": "text/plain" }).end("not found");
});
server.once("error", (err: NodeJS.ErrnoException) => {
  console.error(err.code === "EADDRINUSE" ? `port ${port} is in use: set EXAMPLE_PORT to another one` : err.message);
  process.exit(1);
});
server.listen(port, "127.0.0.1", () => {
  console.log(`browser chat: http://127.0.0.1:${(server.address() as AddressInfo).port}/ (API ${api})`);
});
const stop = (): void => void server.close(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
