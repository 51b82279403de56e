/**
 * An OpenAI-compatible server for the learning benchmark: chat calls get a fixed reply, extraction
 * calls (recognised by the extraction prompt's first words) are answered from a script keyed by the
 * user line they carry, with the stored memory a decision names resolved to the alias the prompt
 * shows it under. Every extraction call is recorded with its prompt.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the script decides for one user line; `target` is the text of a stored memory. */
export type Decision =
  | { op: "add"; text: string; type: string; importance: number }
  | { op: "update" | "supersede"; target: string; text: string; type: string; importance: number }
  | { op: "none" };

export interface ExtractionCall {
  /** The user lines the prompt carried (after their time stamps). */
  lines: string[];
  /** Every message text of the request, joined. */
  prompt: string;
  system: string;
  memories: string;
  messages: string;
  /** Decisions returned, with the alias each target resolved to ("" = not offered: left out). */
  answered: { decision: Decision; alias: string }[];
  /** The operations sent back, as JSON. */
  answer: string;
  /** `response_format.type` of the request (undefined without one). */
  format: string | undefined;
}

export interface ScriptedLlm {
  baseURL: string;
  calls: ExtractionCall[];
  chatCalls(): number;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const between = (text: string, open: string, close: string): string => {
  const start = text.indexOf(open);
  const end = text.indexOf(close, start + open.length);
  return start < 0 || end < 0 ? "" : text.slice(start + open.length, end).trim();
};

/** `m3 (fact): The user lives in Leeds.` lines -> text -> alias. */
function aliases(memories: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of memories.split("\n")) {
    const m = /^(m\d+) \([a-z]+\): (.*)$/u.exec(line.trim());
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

export async function startScriptedLlm(options: {
  marker: string;
  script: ReadonlyMap<string, Decision[]>;
  reply: string;
}): Promise<ScriptedLlm> {
  const calls: ExtractionCall[] = [];
  let chats = 0;
  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const completion = (model: string, content: string) => ({
    id: `chatcmpl-bench${calls.length + chats}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? "/").split("?")[0]!.replace(/^\/v1(?=\/)/, "");
    if (req.method === "GET" && path === "/models")
      return send(res, 200, { object: "list", data: [{ id: "bench-model", object: "model", created: 0, owned_by: "bench" }] });
    if (req.method !== "POST" || path !== "/chat/completions")
      return send(res, 404, { error: { message: "unknown URL", type: "invalid_request_error", param: null, code: null } });
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    if (!isObject(body) || !Array.isArray(body.messages))
      return send(res, 400, { error: { message: "messages required", type: "invalid_request_error", param: null, code: null } });
    const texts = body.messages.filter(isObject).map((m) => (typeof m.content === "string" ? m.content : ""));
    const model = typeof body.model === "string" ? body.model : "bench-model";
    const system = texts[0] ?? "";
    if (!system.startsWith(options.marker)) {
      chats += 1;
      return send(res, 200, completion(model, options.reply));
    }
    const prompt = texts.join("\n");
    const memories = between(prompt, "<memories>", "</memories>");
    const messages = between(prompt, "<messages>", "</messages>");
    const lines = messages.split("\n").flatMap((l) => {
      const m = /^\[[^\]]*\] user: (.*)$/u.exec(l);
      return m ? [m[1]!] : [];
    });
    const offered = aliases(memories);
    const answered: ExtractionCall["answered"] = [];
    const operations: Json[] = [];
    for (const line of lines) {
      for (const decision of options.script.get(line) ?? [{ op: "none" as const }]) {
        if (decision.op === "none") {
          answered.push({ decision, alias: "" });
          operations.push({ op: "none", memory: "", text: "", type: "context", importance: 0 });
        } else if (decision.op === "add") {
          answered.push({ decision, alias: "" });
          operations.push({ op: "add", memory: "", text: decision.text, type: decision.type, importance: decision.importance });
        } else {
          const alias = offered.get(decision.target) ?? "";
          answered.push({ decision, alias });
          // A memory that was not offered cannot be named: the decision is left out, as a model would.
          if (alias !== "")
            operations.push({ op: decision.op, memory: alias, text: decision.text, type: decision.type, importance: decision.importance });
        }
      }
    }
    const answer = JSON.stringify({ operations });
    const format = isObject(body.response_format) && typeof body.response_format.type === "string" ? body.response_format.type : undefined;
    calls.push({ lines, prompt, system, memories, messages, answered, answer, format });
    send(res, 200, completion(model, answer));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() =>
      send(res, 500, { error: { message: "bench server failure", type: "server_error", param: null, code: null } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseURL: `${url}/v1`,
    calls,
    chatCalls: () => chats,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
