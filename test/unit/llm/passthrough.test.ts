import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ReplyAssembler, replyFromCompletion } from "../../../src/llm/chunk-reply.ts";
import { LlmError } from "../../../src/memory/errors.ts";
import { OpenAIChatModel } from "../../../src/llm/openai-chat.ts";
import { createOpenAIClient } from "../../../src/llm/openai-client.ts";
import type { PassThroughChunk } from "../../../src/memory/ports/llm.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.ts";

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.setMode({ mode: "echo", chunkDelayMs: 1 });
  fake.clearRequests();
});

const model = (options: { temperature?: number; maxTokens?: number; idle?: number } = {}) =>
  new OpenAIChatModel(createOpenAIClient({ apiKey: "k", baseURL: fake.baseURL, timeoutMs: 5000, maxRetries: 0 }), {
    model: "configured-model",
    ...options,
    streamIdleTimeoutMs: options.idle,
  });

const messages = [{ role: "user" as const, content: "hi there" }];

describe("OpenAIChatModel pass-through", () => {
  it("sends the client's fields unchanged with memory's messages; configured defaults only fill absent fields", async () => {
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    const answer = await model({ temperature: 0.9, maxTokens: 50 }).completeRaw({
      fields: { model: "client-model", tools, temperature: 0, top_p: 0.5, seed: 7 },
      messages,
    });
    expect(fake.requests().at(-1)?.body).toEqual({
      model: "client-model",
      tools,
      temperature: 0,
      top_p: 0.5,
      seed: 7,
      max_tokens: 50,
      messages,
      stream: false,
    });
    expect(answer.body).toMatchObject({ object: "chat.completion", model: "client-model", system_fingerprint: "fp_fake" });
    expect(answer.reply).toMatchObject({ content: "hi there", finishReason: "stop", model: "client-model" });
    expect(answer.reply.usage?.totalTokens ?? 0).toBeGreaterThan(0);

    await model({ maxTokens: 50 }).completeRaw({ fields: { max_completion_tokens: 20 }, messages });
    expect(fake.requests().at(-1)?.body).toEqual({ model: "configured-model", max_completion_tokens: 20, messages, stream: false });
  });

  it("returns tool calls as the upstream sent them, and the reply memory stores", async () => {
    fake.setMode({
      mode: "tools",
      toolCalls: [
        { name: "a", arguments: '{"x":1}' },
        { name: "b", arguments: "{}" },
      ],
    });
    const answer = await model().completeRaw({ fields: {}, messages });
    const message = (answer.body.choices as { message: Record<string, unknown> }[])[0]?.message;
    expect(message).toMatchObject({ content: null, tool_calls: [{ function: { name: "a" } }, { function: { name: "b" } }] });
    expect(answer.reply).toMatchObject({ content: "", finishReason: "tool_calls" });
    expect(answer.reply.tool_calls?.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ["a", '{"x":1}'],
      ["b", "{}"],
    ]);
  });

  it("streams the upstream's chunks as sent and assembles tool-call deltas and the usage chunk", async () => {
    fake.setMode({ mode: "tools", chunkDelayMs: 1, toolCalls: [{ name: "lookup", arguments: '{"query":"long enough to split"}' }] });
    const stream = model().streamRaw({ fields: { stream_options: { include_usage: true } }, messages });
    const chunks: PassThroughChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(fake.requests().at(-1)?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(chunks.every((c) => c.chunk.object === "chat.completion.chunk")).toBe(true);
    expect(chunks.at(-1)?.chunk.choices).toEqual([]);
    const reply = stream.reply();
    expect(reply.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        type: "function",
        function: { name: "lookup", arguments: '{"query":"long enough to split"}' },
      },
    ]);
    expect(reply).toMatchObject({ content: "", finishReason: "tool_calls" });
    expect(reply.usage?.totalTokens).toBeGreaterThan(0);
  });

  it("streams text with the text of each chunk; an empty stream is bad_output; a stall is a timeout", async () => {
    const stream = model().streamRaw({ fields: {}, messages: [{ role: "user", content: "one two three four five" }] });
    let text = "";
    for await (const chunk of stream) text += chunk.text;
    expect(text).toBe("one two three four five");
    expect(stream.reply().content).toBe(text);

    fake.setMode({ mode: "empty" });
    const empty = model().streamRaw({ fields: {}, messages });
    for await (const chunk of empty) void chunk;
    expect(() => empty.reply()).toThrow(LlmError);

    fake.setMode({ mode: "timeout", delayMs: 2000 });
    const stalled = model({ idle: 200 }).streamRaw({ fields: {}, messages });
    const err = await (async () => {
      for await (const chunk of stalled) void chunk;
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ kind: "timeout" });
  });

  it("lists the upstream's models", async () => {
    expect(await model().models()).toEqual({ object: "list", data: [{ id: "fake-model", object: "model", created: 0, owned_by: "fake" }] });
  });
});

describe("reading replies", () => {
  it("a completion without text or tool calls, or with an unusable call id, is bad_output", () => {
    const body = (message: unknown) => ({ choices: [{ message, finish_reason: "stop" }] });
    expect(() => replyFromCompletion(body({ content: "" }), "m")).toThrow(LlmError);
    expect(() =>
      replyFromCompletion(
        body({ content: null, tool_calls: [{ id: "bad id", type: "function", function: { name: "f", arguments: "{}" } }] }),
        "m",
      ),
    ).toThrow(LlmError);
    expect(replyFromCompletion(body({ content: null, refusal: "I can't help with that" }), "m").content).toBe("I can't help with that");
  });

  it("assembles parallel tool calls by index, whatever order their pieces arrive in", () => {
    const a = new ReplyAssembler("m");
    const delta = (d: unknown, finish: string | null = null) => ({ choices: [{ index: 0, delta: d, finish_reason: finish }] });
    a.add(delta({ role: "assistant", content: null }));
    a.add(delta({ tool_calls: [{ index: 1, id: "c2", type: "function", function: { name: "g", arguments: "" } }] }));
    a.add(delta({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "f", arguments: '{"a":' } }] }));
    a.add(
      delta({
        tool_calls: [
          { index: 0, function: { arguments: "1}" } },
          { index: 1, function: { arguments: "{}" } },
        ],
      }),
    );
    a.add(delta({}, "tool_calls"));
    a.add({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 }, model: "m-2" });
    expect(a.reply()).toEqual({
      content: "",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
        { id: "c2", type: "function", function: { name: "g", arguments: "{}" } },
      ],
      finishReason: "tool_calls",
      model: "m-2",
      usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    });
  });
});
