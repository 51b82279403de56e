import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/**
 * The browser chat's backend, as small as a real one can be: it serves the page on its own origin
 * and answers `POST /token` with a short-lived token for one user and session, minted with the
 * tenant key through `POST /v1/tokens`. The key stays here; the page calls the API directly
 * (cross-origin, `Authorization: Bearer <token>`), so the API must list this origin in CORS_ORIGINS
 * (`npm run dev` does for 127.0.0.1 and localhost on EXAMPLE_PORT) and have a TOKEN_SECRET (dev: set).
 *
 *   npm run dev                  # in another terminal (with OPENAI_API_KEY or OPENAI_BASE_URL set)
 *   npm run example:browser      # then open the URL it prints
 *
 * EXAMPLE_PORT moves the page (default 8788; give `npm run dev` the same one), AGENT_MEMORY_URL and
 * AGENT_MEMORY_KEY point it at another API.
 */
const env = process.env;
const api = (env.AGENT_MEMORY_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
const apiKey = env.AGENT_MEMORY_KEY ?? "dev-key";
const port = Number(env.EXAMPLE_PORT ?? 8788);
/** Tokens live 5 minutes (the API's floor is 60 s); the page mints a new one a minute before. */
const TOKEN_TTL_SECONDS = 300;
/** What the page needs: read the context, chat. No `write`: it never edits facts or settings. */
const TOKEN_SCOPES = ["read", "chat"];
const MAX_BODY_BYTES = 4096;

const file = (name: string): string => readFileSync(fileURLToPath(new URL(name, import.meta.url)), "utf8");
const PAGES: Record<string, { type: string; body: string }> = {
  "/": { type: "text/html; charset=utf-8", body: file("./index.html") },
  "/chat.js": { type: "text/javascript; charset=utf-8", body: file("./chat.js") },
};

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error("body too large");
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/**
 * `POST /token {userId, sessionId}` -> `{token, expiresAt, apiBase}`. A real backend takes the user
 * from its own sign-in, never from the request; this demo lets the page pick one.
 */
async function mintToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = (await readJson(req).catch(() => null)) as { userId?: unknown; sessionId?: unknown } | null;
  if (!body || typeof body.userId !== "string" || typeof body.sessionId !== "string") {
    return json(res, 400, { error: { code: "validation_failed", message: "send {userId, sessionId} as JSON strings" } });
  }
  const upstream = await fetch(`${api}/v1/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ userId: body.userId, sessionId: body.sessionId, scopes: TOKEN_SCOPES, ttlSeconds: TOKEN_TTL_SECONDS }),
  });
  const answer = (await upstream.json()) as { token?: string; expiresAt?: number };
  if (!upstream.ok) return json(res, upstream.status, answer);
  json(res, 200, { token: answer.token, expiresAt: answer.expiresAt, apiBase: api });
}

const server = createServer((req, res) => {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const page = req.method === "GET" ? PAGES[path] : undefined;
  if (page) {
    res.writeHead(200, { "content-type": page.type, "cache-control": "no-store" });
    return void res.end(page.body);
  }
  if (path === "/token" && req.method === "POST") {
    return void mintToken(req, res).catch((err: unknown) => {
      json(res, 502, { error: { code: "api_unreachable", message: `${api} did not answer: ${(err as Error).message}` } });
    });
  }
  res.writeHead(404, { "content-type": "text/plain" }).end("not found");
});

/** Says once, at start, what would stop the page working: no API, no tokens, or no CORS for this origin. */
async function checkApi(origin: string): Promise<void> {
  try {
    const preflight = await fetch(`${api}/v1/tokens`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    const allowed = preflight.headers.get("access-control-allow-origin");
    if (allowed !== origin && allowed !== "*") console.warn(`warning: ${api} does not allow ${origin}: add it to CORS_ORIGINS of the API`);
    const probe = await fetch(`${api}/v1/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ userId: "browser-user", sessionId: "browser-chat", scopes: ["read"], ttlSeconds: 60 }),
    });
    if (probe.status !== 201) {
      const answer = (await probe.json().catch(() => null)) as { error?: { message?: string } } | null;
      console.warn(`warning: ${api} did not mint a token (${probe.status}): ${answer?.error?.message ?? "no answer"}`);
    }
  } catch (err) {
    console.warn(`warning: ${api} did not answer (${(err as Error).message}): start it with npm run dev`);
  }
}

server.once("error", (err: NodeJS.ErrnoException) => {
  console.error(err.code === "EADDRINUSE" ? `port ${port} is in use: set EXAMPLE_PORT to another one` : err.message);
  process.exit(1);
});
server.listen(port, "127.0.0.1", () => {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  console.log(`browser chat: ${origin}/ (API ${api})`);
  void checkApi(origin);
});
const stop = (): void => void server.close(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
