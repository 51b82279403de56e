/**
 * A local OpenAI-compatible server for tests and benchmarks (no LLM is reachable here).
 *
 * API (an optional `/v1` prefix is accepted on every path, so both the origin and `origin/v1`
 * work as a base URL): `POST /chat/completions` (JSON, or SSE with `stream: true`),
 * `POST /embeddings` (deterministic hashed vectors, `float` or `base64`), `GET /models`.
 *
 * Control API over plain HTTP, usable from inside workerd tests too:
 * - `POST /__control/mode` with a {@link FakeModeOptions} JSON body; `GET` returns the current mode;
 * - `GET /__control/requests` returns every API request received (`[{method, path, body}]`),
 *   `DELETE` clears them; `POST /__control/reset` does both (mode back to `echo`, script cleared);
 * - `POST /__control/script` with a {@link FakeScript} JSON body: chat requests whose prompt
 *   contains `match` are answered from `answers`, in order, before the mode applies (`GET` returns
 *   the answers left).
 *
 * CLI: `npx tsx test/support/fake-openai.ts [port]` starts it and prints its URL.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import {
  capTokens,
  chatContent,
  type FakeModeOptions,
  type FakeScript,
  fakeEmbedding,
  isObject,
  type Json,
  messagesOf,
  MODES,
  orphanToolResult,
  parseMode,
  parseScript,
  type RecordedRequest,
  type ScriptedAnswer,
  tokensOf,
  toolCallsOf,
} from "./fake-openai-modes.ts";

export interface FakeOpenAI {
  /** Origin, e.g. `http://127.0.0.1:41234` (the control API lives here). */
  url: string;
  /** `url` + `/v1`: the SDK's base URL. */
  baseURL: string;
  close(): Promise<void>;
  requests(): RecordedRequest[];
  clearRequests(): void;
  setMode(options: FakeModeOptions): void;
  /** Replaces the script (see {@link FakeScript}); an empty `answers` clears it. */
  script(script: FakeScript): void;
}

const sleep = (ms: number, res: ServerResponse): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0) return resolve();
    // A client that gives up (SDK timeout) must not leave a timer behind, nor a finished sleep a
    // listener (a slow stream sleeps once per chunk on the same response).
    const onClose = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      res.off("close", onClose);
      resolve();
    }, ms);
    res.once("close", onClose);
  });

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const apiError = (message: string, type: string, code: string | null): Json => ({ error: { message, type, param: null, code } });

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  return raw ? (JSON.parse(raw) as unknown) : {};
}

let seq = 0;

async function chat(res: ServerResponse, mode: FakeModeOptions, body: Json): Promise<void> {
  const model = typeof body.model === "string" ? body.model : "fake-model";
  const max =
    typeof body.max_tokens === "number"
      ? body.max_tokens
      : typeof body.max_completion_tokens === "number"
        ? body.max_completion_tokens
        : undefined;
  const { text, cut } = capTokens(chatContent(mode, body), max);
  const id = ++seq;
  const calls = mode.mode === "tools" ? toolCallsOf(mode, id) : [];
  const finish = calls.length > 0 ? "tool_calls" : cut ? "length" : "stop";
  const promptTokens = tokensOf(
    messagesOf(body)
      .map((m) => m.text)
      .join("\n"),
  );
  const usage = { prompt_tokens: promptTokens, completion_tokens: tokensOf(text), total_tokens: promptTokens + tokensOf(text) };
  const base = { id: `chatcmpl-fake${id}`, created: Math.floor(Date.now() / 1000), model, system_fingerprint: "fp_fake" };
  if (body.stream !== true) {
    const message =
      calls.length > 0
        ? { role: "assistant", content: null, tool_calls: calls, refusal: null }
        : { role: "assistant", content: text, refusal: null };
    sendJson(res, 200, {
      ...base,
      object: "chat.completion",
      choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
      usage,
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = (choices: unknown[], extra: Json = {}): void => {
    if (!res.destroyed) res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices, ...extra })}\n\n`);
  };
  send([{ index: 0, delta: { role: "assistant", content: calls.length > 0 ? null : "" }, logprobs: null, finish_reason: null }]);
  // Tool calls stream as OpenAI does: id and name first, then the arguments in pieces, by index.
  for (const [index, call] of calls.entries()) {
    await sleep(mode.chunkDelayMs ?? 10, res);
    send([
      {
        index: 0,
        delta: { tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] },
        logprobs: null,
        finish_reason: null,
      },
    ]);
    for (const piece of call.function.arguments.match(/.{1,5}/gsu) ?? []) {
      send([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, logprobs: null, finish_reason: null }]);
    }
  }
  for (const piece of text.match(/\s*\S{1,4}|\s+$/gu) ?? []) {
    await sleep(mode.chunkDelayMs ?? 10, res);
    if (res.destroyed) return;
    send([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]);
  }
  send([{ index: 0, delta: {}, logprobs: null, finish_reason: finish }]);
  const opts = body.stream_options;
  if (isObject(opts) && opts.include_usage === true) send([], { usage });
  if (!res.destroyed) res.end("data: [DONE]\n\n");
}

function embeddings(res: ServerResponse, body: Json): void {
  const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? "")];
  const dims = typeof body.dimensions === "number" ? body.dimensions : 1536;
  const base64 = body.encoding_format === "base64";
  const data = input.map((text, index) => {
    const vector = fakeEmbedding(text, dims);
    const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
    return { object: "embedding", index, embedding };
  });
  const tokens = tokensOf(input.join(" "));
  sendJson(res, 200, {
    object: "list",
    data,
    model: body.model ?? "fake-embedding",
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

export async function startFakeOpenAI(options: { port?: number } = {}): Promise<FakeOpenAI> {
  let mode: FakeModeOptions = { mode: "echo" };
  let once: { mode: FakeModeOptions; left: number } | null = null;
  let recorded: RecordedRequest[] = [];
  let scripted: FakeScript = { match: "", answers: [] };
  const setScript = (next: FakeScript): void => {
    scripted = { match: next.match, answers: [...next.answers] };
  };
  /** The next scripted answer for a chat request, if the script covers it. */
  const scriptedFor = (body: unknown): ScriptedAnswer | undefined => {
    if (scripted.answers.length === 0 || !isObject(body)) return undefined;
    if (scripted.match !== "" && !messagesOf(body).some((m) => m.text.includes(scripted.match))) return undefined;
    return scripted.answers.shift();
  };
  const setMode = (next: FakeModeOptions): void => {
    if (next.count !== undefined && next.count > 0) once = { mode: next, left: next.count };
    else [mode, once] = [next, null];
  };
  const take = (): FakeModeOptions => {
    if (!once) return mode;
    const current = once.mode;
    if (--once.left <= 0) once = null;
    return current;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0]!.replace(/^\/v1(?=\/)/, "");
    const method = req.method ?? "GET";
    let body: unknown;
    try {
      body = await readBody(req);
    } catch {
      return sendJson(res, 400, apiError("We could not parse the JSON body of your request.", "invalid_request_error", null));
    }
    if (path.startsWith("/__control/")) {
      if (path === "/__control/mode" && method === "GET") return sendJson(res, 200, once ? once.mode : mode);
      if (path === "/__control/mode" && method === "POST") {
        const next = parseMode(body);
        if (!next) return sendJson(res, 400, { error: `mode must be one of ${MODES.join(", ")}` });
        setMode(next);
        return sendJson(res, 200, { ok: true, mode: next });
      }
      if (path === "/__control/requests" && method === "GET") return sendJson(res, 200, recorded);
      if (path === "/__control/requests" && method === "DELETE") {
        const cleared = recorded.length;
        recorded = [];
        return sendJson(res, 200, { cleared });
      }
      if (path === "/__control/script" && method === "POST") {
        const next = parseScript(body);
        if (!next) return sendJson(res, 400, { error: "script must be {match: string, answers: [{text} | {status, message}]}" });
        setScript(next);
        return sendJson(res, 200, { ok: true, answers: next.answers.length });
      }
      if (path === "/__control/script" && method === "GET") return sendJson(res, 200, scripted);
      if (path === "/__control/reset" && method === "POST") {
        [mode, once, recorded] = [{ mode: "echo" }, null, []];
        scripted = { match: "", answers: [] };
        return sendJson(res, 200, { ok: true });
      }
      return sendJson(res, 404, { error: "unknown control endpoint" });
    }
    if (method === "GET" && path === "/models") {
      return sendJson(res, 200, { object: "list", data: [{ id: "fake-model", object: "model", created: 0, owned_by: "fake" }] });
    }
    const known = method === "POST" && (path === "/chat/completions" || path === "/embeddings");
    if (!known) return sendJson(res, 404, apiError(`Unknown request URL: ${method} ${path}`, "invalid_request_error", "unknown_url"));
    recorded.push({ method, path, body });
    const planned = path === "/chat/completions" ? scriptedFor(body) : undefined;
    if (planned) {
      if (planned.status !== undefined)
        return sendJson(
          res,
          planned.status,
          apiError(planned.message ?? "The fake server was told to fail.", "invalid_request_error", null),
        );
      return chat(res, { mode: "fixed", text: planned.text ?? "", chunkDelayMs: 0 }, isObject(body) ? body : {});
    }
    const current = take();
    await sleep(current.delayMs ?? (current.mode === "timeout" ? 60_000 : 0), res);
    if (res.destroyed) return;
    if (current.mode === "error") {
      return sendJson(res, current.status ?? 500, apiError("The fake server was told to fail.", "server_error", "fake_error"));
    }
    if (!isObject(body)) return sendJson(res, 400, apiError("Body must be a JSON object.", "invalid_request_error", null));
    if (path === "/embeddings") return embeddings(res, body);
    // Like OpenAI: a tool result must answer a call of the assistant message right before it.
    const orphan = orphanToolResult(body);
    if (orphan) return sendJson(res, 400, apiError(orphan, "invalid_request_error", null));
    await chat(res, current, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => sendJson(res, 500, apiError("fake server failure", "server_error", null)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    requests: () => [...recorded],
    clearRequests: () => {
      recorded = [];
    },
    setMode,
    script: setScript,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hanging requests (timeout mode, open streams) would otherwise keep close() waiting.
        server.closeAllConnections();
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.argv[2] ?? 0);
  const fake = await startFakeOpenAI({ port: Number.isInteger(port) ? port : 0 });
  console.log(fake.url);
  const stop = (): void => void fake.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
