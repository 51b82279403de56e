import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeOpenAI } from "../../../test/support/fake-openai.ts";

export interface LlmCall {
  at: number;
  doneAt: number;
  body: string;
}

/** Forwards to the fake LLM and records when each chat request arrived and when its answer ended. */
export async function startTimingProxy(target: FakeOpenAI): Promise<{ url: string; calls: LlmCall[]; close(): Promise<void> }> {
  const calls: LlmCall[] = [];
  const origin = new URL(target.url);
  const server: Server = createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const upstream = httpRequest(
        { host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: { ...req.headers, host: origin.host } },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          up.on("end", () => {
            if ((req.url ?? "").endsWith("/chat/completions")) calls.push({ at, doneAt: Date.now(), body: body.toString("utf8") });
          });
        },
      );
      upstream.on("error", () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
