import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { chatRequests, resetLlm, setLlmMode, type LlmRequest } from "../support/chat.ts";
import { memoryClient, shape } from "../support/openai.ts";
import type { SessionState } from "../support/sessions.ts";

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type Tool = OpenAI.Chat.Completions.ChatCompletionTool;

const MODEL = "fake-model";
const TOOLS: Tool[] = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Weather of a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
];
const QUESTION = "what is the weather in Paris?";

async function windowOf(sessionId: string) {
  const res = await call<SessionState>("GET", `/v1/sessions/${sessionId}`);
  expect(res.status, res.text).toBe(200);
  return res.json.window;
}

const lastRequest = async (): Promise<LlmRequest> => {
  const requests = await chatRequests();
  const last = requests.at(-1);
  if (!last) throw new Error("the fake LLM received no chat request");
  return last;
};

describe("POST /v1/chat/completions passes every field through and keeps tool calls", () => {
  beforeEach(async () => {
    await resetLlm();
    await setLlmMode({ mode: "echo", chunkDelayMs: 1 });
  });
  afterEach(resetLlm);

  it("sends every request field the upstream understands unchanged; only messages get memory", async () => {
    const sid = uniqueId("px-fields");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    const fields = {
      model: MODEL,
      tools: TOOLS,
      tool_choice: "auto" as const,
      parallel_tool_calls: false,
      response_format: { type: "text" as const },
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 300,
      max_completion_tokens: 280,
      stop: ["\n\nEND"],
      seed: 42,
      logit_bias: { "50256": -100 },
      user: "end-user-7",
      metadata: { trace: "t-1" },
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      n: 1,
      logprobs: false,
      store: false,
      service_tier: "auto" as const,
      reasoning_effort: "low" as const,
    };
    await openai.chat.completions.create({ ...fields, messages: [{ role: "user", content: "hello with fields" }] });
    await drain();
    const sent = (await lastRequest()).body;
    const { model: _model, ...passed } = fields;
    expect(sent).toMatchObject({ ...passed, model: MODEL });
    // The client's own message list was replaced by memory's: the stored turn, nothing else.
    expect((sent.messages ?? []).map(shape)).toEqual([["user", "hello with fields"]]);

    const streamed = await openai.chat.completions.create({
      ...fields,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "stream with fields" }],
    });
    for await (const _chunk of streamed) void _chunk;
    await drain();
    expect((await lastRequest()).body).toMatchObject({ ...passed, stream: true, stream_options: { include_usage: true } });
  });

  it("a tool round trip: tools reach the upstream, tool_calls reach the client, the tool result turn succeeds, the window keeps the pair", async () => {
    const sid = uniqueId("px-tools");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    await setLlmMode({ mode: "tools", count: 1 });
    const history: Message[] = [{ role: "user", content: QUESTION }];
    const first = await openai.chat.completions.create({ model: MODEL, tools: TOOLS, tool_choice: "auto", messages: history });
    await drain();
    expect((await lastRequest()).body.tools).toEqual(TOOLS);

    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBeNull();
    const calls = choice?.message.tool_calls ?? [];
    expect(calls).toHaveLength(1);
    const call0 = calls[0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call0.function).toEqual({ name: "get_weather", arguments: '{"city":"Paris"}' });
    expect(first.usage?.total_tokens ?? 0).toBeGreaterThan(0);

    // The agent runs the tool and sends the whole conversation back, ending in the tool result.
    history.push(choice!.message, { role: "tool", tool_call_id: call0.id, content: '{"temp_c":21}' });
    const second = await openai.chat.completions.create({ model: MODEL, tools: TOOLS, messages: history });
    await drain();
    expect(second.choices[0]?.message.content).toBe('tool result: {"temp_c":21}');
    expect(second.choices[0]?.finish_reason).toBe("stop");

    // The upstream saw the exchange from memory, the call and its result together.
    const sent = (await lastRequest()).body.messages ?? [];
    expect(sent.map(shape)).toEqual([
      ["user", QUESTION],
      ["assistant", "", ["get_weather"]],
      ["tool", '{"temp_c":21}', call0.id],
    ]);

    expect((await windowOf(sid)).map(shape)).toEqual([
      ["user", QUESTION],
      ["assistant", "", ["get_weather"]],
      ["tool", '{"temp_c":21}', call0.id],
      ["assistant", 'tool result: {"temp_c":21}'],
    ]);
  });

  it("streams tool-call deltas and the usage-only last chunk as the upstream sent them, then the tool result turn streams too", async () => {
    const sid = uniqueId("px-tools-stream");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    await setLlmMode({
      mode: "tools",
      count: 1,
      chunkDelayMs: 1,
      toolCalls: [{ name: "get_weather", arguments: '{"city":"Paris","unit":"c"}' }],
    });
    const history: Message[] = [{ role: "user", content: QUESTION }];
    const stream = await openai.chat.completions.create({
      model: MODEL,
      tools: TOOLS,
      stream: true,
      stream_options: { include_usage: true },
      messages: history,
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    await drain();

    const deltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(deltas.length).toBeGreaterThan(2); // id and name first, then the arguments in pieces
    const id = deltas[0]?.id ?? "";
    expect(id).toMatch(/^call_/);
    expect(deltas.map((d) => d.function?.arguments ?? "").join("")).toBe('{"city":"Paris","unit":"c"}');
    expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(["tool_calls"]);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.total_tokens ?? 0).toBeGreaterThan(0);

    history.push(
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id, type: "function", function: { name: "get_weather", arguments: '{"city":"Paris","unit":"c"}' } }],
      },
      { role: "tool", tool_call_id: id, content: "sunny" },
    );
    const follow = await openai.chat.completions.create({ model: MODEL, tools: TOOLS, stream: true, messages: history });
    let answer = "";
    for await (const chunk of follow) answer += chunk.choices[0]?.delta.content ?? "";
    await drain();
    expect(answer).toBe("tool result: sunny");
    expect((await windowOf(sid)).map(shape)).toEqual([
      ["user", QUESTION],
      ["assistant", "", ["get_weather"]],
      ["tool", "sunny", id],
      ["assistant", "tool result: sunny"],
    ]);
  });

  it("keeps a multi-step agent loop in order and stores each exchange once", async () => {
    const sid = uniqueId("px-loop");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    const history: Message[] = [
      { role: "system", content: "You are an agent." },
      { role: "user", content: "plan my trip" },
    ];
    for (const name of ["find_flights", "find_hotels"]) {
      await setLlmMode({ mode: "tools", count: 1, toolCalls: [{ name, arguments: "{}" }] });
      const res = await openai.chat.completions.create({ model: MODEL, tools: TOOLS, messages: history });
      await drain();
      const message = res.choices[0]!.message;
      const callId = message.tool_calls?.[0]?.id ?? "";
      history.push(message, { role: "tool", tool_call_id: callId, content: `${name} done` });
    }
    const final = await openai.chat.completions.create({ model: MODEL, tools: TOOLS, messages: history });
    await drain();
    expect(final.choices[0]?.message.content).toBe("tool result: find_hotels done");
    expect((await windowOf(sid)).map((m) => shape(m).slice(0, 3))).toEqual([
      ["user", "plan my trip"],
      ["assistant", "", ["find_flights"]],
      ["tool", "find_flights done", history[3] && "tool_call_id" in history[3] ? history[3].tool_call_id : ""],
      ["assistant", "", ["find_hotels"]],
      ["tool", "find_hotels done", history[5] && "tool_call_id" in history[5] ? history[5].tool_call_id : ""],
      ["assistant", "tool result: find_hotels done"],
    ]);
  });

  it("an upstream's own 4xx (say, a tool schema it refuses) is the client's error: 400 in OpenAI's shape, stream or not", async () => {
    const sid = uniqueId("px-4xx");
    const { openai } = memoryClient(sid, uniqueId("u"));
    await setLlmMode({ mode: "error", status: 400 });
    const err = await openai.chat.completions.create({ model: MODEL, tools: TOOLS, messages: [{ role: "user", content: "hi" }] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const body = (err as InstanceType<typeof OpenAI.APIError>).error as { message: string; code: string };
    expect(body.code).toBe("llm_rejected");
    expect(body.message).toMatch(/^the LLM rejected the request \(HTTP 400, fake_error\)/);
    const stream = await openai.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: "user", content: "hi" }] });
    await expect(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    ).rejects.toThrow(/the LLM rejected the request/);
  });

  it("refuses image parts in OpenAI's error shape: memory stores text", async () => {
    const { openai } = memoryClient(uniqueId("px-image"), uniqueId("u"));
    const err = await openai.chat.completions
      .create({
        model: MODEL,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "what is this?" },
              { type: "image_url", image_url: { url: "https://x.test/cat.png" } },
            ],
          },
        ],
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(((err as InstanceType<typeof OpenAI.APIError>).error as { message: string }).message).toMatch(
      /^invalid body: messages\.0\.content\.1 only text parts are stored/,
    );
  });

  it("rejects a conversation that ends with an assistant message, in OpenAI's error shape", async () => {
    const sid = uniqueId("px-bad-end");
    const { openai } = memoryClient(sid, uniqueId("u"));
    const err = await openai.chat.completions
      .create({
        model: MODEL,
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "hello" },
        ],
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const body = (err as InstanceType<typeof OpenAI.APIError>).error as { message: string; type: string; code: string };
    expect(body).toMatchObject({ type: "invalid_request_error", code: "validation_failed" });
    expect(body.message).toBe("invalid body: messages must end with a user message or a tool result");
    expect(await chatRequests()).toEqual([]);
  });
});
