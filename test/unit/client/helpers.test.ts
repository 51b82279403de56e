import { MemoryApiError, createMemoryClient, readServerSentEvents, type ChatStreamEvent, type TurnMemory } from "@agent-memory/client";
import { describe, expect, it } from "vitest";

// The typed client's own logic against a fetch double: what it sends, how it reads answers,
// errors and event streams. The round trip against the real service is test/stack/dev/client-examples.test.ts.

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

function fakeFetch(answer: (sent: Sent) => Response): { fetch: (input: Request) => Promise<Response>; sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    fetch: async (input: Request) => {
      const request = { method: input.method, url: input.url, headers: input.headers, body: await input.text() };
      sent.push(request);
      return answer(request);
    },
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** A body that arrives in the given chunks, split wherever the test says. */
const chunked = (chunks: string[]): ReadableStream<Uint8Array> => {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
};

const collect = async <T>(events: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const event of events) all.push(event);
  return all;
};

describe("the typed client", () => {
  it("sends the key, the path, the body and the query as the service reads them", async () => {
    const recall = { userId: "u1", query: "tea", facts: [] };
    const double = fakeFetch((sent) => json(200, sent.url.includes("/facts?") ? recall : { ok: true }));
    const memory = createMemoryClient({ baseUrl: "http://memory.test/", apiKey: "k1", fetch: double.fetch });
    await memory.append("s1", [{ role: "user", content: "hi" }], { userId: "u1" });
    await memory.context("s1", { query: "tea", k: 3, types: ["fact", "preference"] });
    await memory.facts("u1").recall("tea", { k: 2, minScore: 0.5 });
    await memory.facts("u1").update("f1", { importance: 0.9 });

    expect(double.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST http://memory.test/v1/sessions/s1/messages",
      "GET http://memory.test/v1/sessions/s1/context?query=tea&k=3&types=fact%2Cpreference",
      "GET http://memory.test/v1/users/u1/facts?k=2&minScore=0.5&query=tea",
      "PATCH http://memory.test/v1/users/u1/facts/f1",
    ]);
    expect(double.sent.every((s) => s.headers.get("authorization") === "Bearer k1")).toBe(true);
    expect(JSON.parse(double.sent[0]?.body ?? "")).toEqual({ messages: [{ role: "user", content: "hi" }], userId: "u1" });
    expect(JSON.parse(double.sent[3]?.body ?? "")).toEqual({ importance: 0.9 });
  });

  it("answers recall and list with their own shapes, and refuses the other one", async () => {
    const list = { userId: "u1", facts: [], nextCursor: null };
    const recall = { userId: "u1", query: "tea", facts: [] };
    const memory = createMemoryClient({
      baseUrl: "http://memory.test",
      fetch: fakeFetch((sent) => json(200, sent.url.includes("query=") ? recall : list)).fetch,
    });
    expect(await memory.facts("u1").recall("tea")).toEqual(recall);
    expect(await memory.facts("u1").list()).toEqual(list);
    const swapped = createMemoryClient({
      baseUrl: "http://memory.test",
      fetch: fakeFetch((sent) => json(200, sent.url.includes("query=") ? list : recall)).fetch,
    });
    await expect(swapped.facts("u1").recall("tea")).rejects.toMatchObject({ code: "unexpected_answer" });
    await expect(swapped.facts("u1").list()).rejects.toMatchObject({ code: "unexpected_answer" });
  });

  it("throws the service's error code, message, details and Retry-After", async () => {
    const error = { error: { code: "upstream_unavailable", message: "Redis is down", details: { upstream: "redis" } } };
    const memory = createMemoryClient({
      baseUrl: "http://memory.test",
      fetch: fakeFetch(() => json(503, error, { "retry-after": "5" })).fetch,
    });
    const thrown = await memory
      .facts("u1")
      .get("f1")
      .catch((err: unknown) => err);
    expect(thrown).toBeInstanceOf(MemoryApiError);
    expect(thrown).toMatchObject({
      status: 503,
      code: "upstream_unavailable",
      message: "Redis is down",
      details: { upstream: "redis" },
      retryAfter: 5,
    });
  });

  it("turns a chat stream into deltas and one done event", async () => {
    const turnMemory: TurnMemory = {
      sessionId: "s1",
      recalled: [],
      summaryVersion: null,
      contextTokens: { system: 0, summary: 0, facts: 0, window: 5, total: 5 },
      compressionDue: false,
    };
    const stream = chunked([
      'event: delta\ndata: {"content":"Hel',
      'lo"}\n\nevent: delta\r\ndata: {"content":" there"}\r',
      `\n\r\n: a comment\n\nevent: done\ndata: {"reply":{"id":"r1","role":"assistant","content":"Hello there"},"memory":${JSON.stringify(turnMemory)}}\n\n`,
    ]);
    const double = fakeFetch(() => new Response(stream, { headers: { "content-type": "text/event-stream" } }));
    const memory = createMemoryClient({ baseUrl: "http://memory.test", fetch: double.fetch });
    const events = await collect(memory.chatStream("s1", { message: "hi" }));
    expect(events).toEqual<ChatStreamEvent[]>([
      { type: "delta", content: "Hello" },
      { type: "delta", content: " there" },
      { type: "done", reply: { id: "r1", role: "assistant", content: "Hello there" }, memory: turnMemory },
    ]);
    expect(JSON.parse(double.sent[0]?.body ?? "")).toEqual({ message: "hi", stream: true });
  });

  it("throws on an error event, on a stream cut before done, and on an error answer before the stream", async () => {
    const errorEvent =
      'event: delta\ndata: {"content":"Hi"}\n\nevent: error\ndata: {"error":{"code":"llm_unavailable","message":"the LLM failed"}}\n\n';
    const cases: [Response, string][] = [
      [new Response(chunked([errorEvent])), "llm_unavailable"],
      [new Response(chunked(['event: delta\ndata: {"content":"Hi"}\n\n'])), "stream_incomplete"],
      [json(400, { error: { code: "validation_failed", message: "invalid json: message" } }), "validation_failed"],
    ];
    for (const [response, code] of cases) {
      const memory = createMemoryClient({ baseUrl: "http://memory.test", fetch: fakeFetch(() => response).fetch });
      const thrown = await collect(memory.chatStream("s1", { message: "hi" })).catch((err: unknown) => err);
      expect(thrown, code).toBeInstanceOf(MemoryApiError);
      expect((thrown as MemoryApiError).code).toBe(code);
    }
  });

  it("reads multi-line data and unnamed events, and stops the stream when the reader stops", async () => {
    const events = await collect(readServerSentEvents(chunked(["data: a\ndata: b\n\nevent: x\ndata:c\n\n"])));
    expect(events).toEqual([
      { event: "message", data: "a\nb" },
      { event: "x", data: "c" },
    ]);
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode("data: tick\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readServerSentEvents(endless)) {
      expect(event.data).toBe("tick");
      break;
    }
    expect(cancelled).toBe(true);
  });
});
