import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LlmError } from "../../../src/memory/errors.ts";
import { OpenAIChatModel } from "../../../src/llm/openai-chat.ts";
import { createOpenAIClient } from "../../../src/llm/openai-client.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.ts";

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.setMode({ mode: "echo" });
  fake.clearRequests();
});

const model = (opts: { timeoutMs?: number; maxRetries?: number; idle?: number } = {}): OpenAIChatModel =>
  new OpenAIChatModel(
    createOpenAIClient({ apiKey: "test-key", baseURL: fake.baseURL, timeoutMs: opts.timeoutMs ?? 5000, maxRetries: opts.maxRetries ?? 0 }),
    {
      model: "gpt-test",
      temperature: 0.5,
      streamIdleTimeoutMs: opts.idle,
    },
  );

async function failure(p: Promise<unknown>): Promise<LlmError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const delta of stream) out.push(delta);
  return out;
}

describe("OpenAIChatModel.complete", () => {
  it("returns content, model and usage and sends the request parameters", async () => {
    const r = await model().complete({
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hello there" },
      ],
      maxTokens: 50,
    });
    expect(r.content).toBe("hello there");
    expect(r.model).toBe("gpt-test");
    expect(r.usage?.totalTokens).toBeGreaterThan(0);
    const body = fake.requests()[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: "gpt-test", temperature: 0.5, max_tokens: 50 });
    expect(body.messages).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "hello there" },
    ]);
  });

  it("lets the request override the model and keeps tool call pairs", async () => {
    const call = { id: "c1", type: "function" as const, function: { name: "lookup", arguments: "{}" } };
    await model().complete({
      model: "other",
      messages: [
        { role: "assistant", content: "", tool_calls: [call] },
        { role: "tool", content: "42", tool_call_id: "c1" },
        { role: "user", content: "and?" },
      ],
    });
    const body = fake.requests()[0]?.body as { model: string; messages: unknown[] };
    expect(body.model).toBe("other");
    expect(body.messages[0]).toEqual({ role: "assistant", content: null, tool_calls: [call] });
    expect(body.messages[1]).toEqual({ role: "tool", content: "42", tool_call_id: "c1" });
  });

  it("maps an HTTP 500 to an upstream error without the upstream body", async () => {
    fake.setMode({ mode: "error", status: 500 });
    const err = await failure(model().complete({ messages: [{ role: "user", content: "hi" }] }));
    expect(err.kind).toBe("upstream");
    expect(err.status).toBe(500);
    expect(err.retryable).toBe(true);
    expect(err.message).not.toContain("told to fail");
    expect(err.message).not.toContain("test-key");
  });

  it("maps a 400 to a non-retryable upstream error", async () => {
    fake.setMode({ mode: "error", status: 400 });
    const err = await failure(model().complete({ messages: [{ role: "user", content: "hi" }] }));
    expect([err.kind, err.status, err.retryable, err.code]).toEqual(["upstream", 400, false, "fake_error"]);
  });

  it("maps a delay beyond the timeout to a timeout error", async () => {
    fake.setMode({ mode: "timeout", delayMs: 3000 });
    const started = Date.now();
    const err = await failure(model({ timeoutMs: 300 }).complete({ messages: [{ role: "user", content: "hi" }] }));
    expect(err.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("retries once after a 5xx by default", async () => {
    fake.setMode({ mode: "error", status: 503, count: 1 });
    const client = createOpenAIClient({ apiKey: "k", baseURL: fake.baseURL });
    expect([client.maxRetries, client.timeout]).toEqual([1, 15_000]);
    const r = await new OpenAIChatModel(client, { model: "m" }).complete({ messages: [{ role: "user", content: "again" }] });
    expect(r.content).toBe("again");
    expect(fake.requests()).toHaveLength(2);
  });

  it("maps an empty answer to bad_output", async () => {
    fake.setMode({ mode: "empty" });
    expect((await failure(model().complete({ messages: [{ role: "user", content: "hi" }] }))).kind).toBe("bad_output");
  });

  it("reports a connection failure as upstream", async () => {
    const dead = new OpenAIChatModel(createOpenAIClient({ apiKey: "k", baseURL: "http://127.0.0.1:1/v1", maxRetries: 0 }), { model: "m" });
    expect((await failure(dead.complete({ messages: [{ role: "user", content: "hi" }] }))).kind).toBe("upstream");
  });
});

describe("OpenAIChatModel.stream", () => {
  it("yields the deltas in order", async () => {
    const text = "one two three four five six seven";
    const deltas = await collect(model().stream({ messages: [{ role: "user", content: text }] }));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(text);
    expect((fake.requests()[0]!.body as { stream: boolean }).stream).toBe(true);
  });

  it("stops with an aborted error when the caller aborts mid-stream", async () => {
    fake.setMode({ mode: "echo", chunkDelayMs: 50 });
    const controller = new AbortController();
    const got: string[] = [];
    const run = (async () => {
      for await (const d of model().stream({
        messages: [{ role: "user", content: "a b c d e f g h i j k l m n o p" }],
        signal: controller.signal,
      })) {
        got.push(d);
        if (got.length === 2) controller.abort();
      }
    })();
    expect((await failure(run)).kind).toBe("aborted");
    expect(got).toHaveLength(2);
  });

  it("fails with a timeout when the stream stalls", async () => {
    fake.setMode({ mode: "echo", chunkDelayMs: 2000 });
    const err = await failure(collect(model({ idle: 200 }).stream({ messages: [{ role: "user", content: "slow words here" }] })));
    expect(err.kind).toBe("timeout");
  });

  it("maps an error status before the stream to upstream", async () => {
    fake.setMode({ mode: "error", status: 502 });
    expect((await failure(collect(model().stream({ messages: [{ role: "user", content: "x" }] })))).kind).toBe("upstream");
  });

  it("maps an empty stream to bad_output", async () => {
    fake.setMode({ mode: "empty" });
    expect((await failure(collect(model().stream({ messages: [{ role: "user", content: "x" }] })))).kind).toBe("bad_output");
  });

  it("ends quietly when the consumer breaks early", async () => {
    fake.setMode({ mode: "echo", chunkDelayMs: 20 });
    const got: string[] = [];
    for await (const d of model().stream({ messages: [{ role: "user", content: "a b c d e f g h" }] })) {
      got.push(d);
      break;
    }
    expect(got).toEqual(["a"]);
  });
});
