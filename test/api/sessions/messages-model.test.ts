import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { chatRequests, resetLlm } from "../support/chat.ts";
import { shape } from "../support/openai.ts";
import { append, expectJsonError, observable, postMessages, readContext, readSession, type MessageInput } from "../support/sessions.ts";

const CALL = { id: "call_abc123", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } } as const;

/** What the OpenAI API returns as `choices[0].message` for a tool call, appended as is. */
const OPENAI_TOOL_CALL_MESSAGE = { role: "assistant", content: null, tool_calls: [CALL], refusal: null, annotations: [] };

const post = (sessionId: string, messages: unknown[], env?: Record<string, string>) =>
  call("POST", `/v1/sessions/${sessionId}/messages`, { body: { messages }, env });

describe("one message model: the native append takes what OpenAI returns", () => {
  it("accepts an assistant message with tool_calls and content null, then its tool result in a later append", async () => {
    const sid = uniqueId("om-tools");
    await append(sid, [{ role: "user", content: "weather in Paris?" }]);
    expect((await post(sid, [OPENAI_TOOL_CALL_MESSAGE])).status).toBe(201);
    expect((await post(sid, [{ role: "tool", tool_call_id: CALL.id, content: '{"temp_c":21}' }])).status).toBe(201);
    const window = (await readSession(sid)).window;
    expect(window.map(shape)).toEqual([
      ["user", "weather in Paris?"],
      ["assistant", "", ["get_weather"]],
      ["tool", '{"temp_c":21}', CALL.id],
    ]);
    expect(window[1]?.tool_calls).toEqual([CALL]);
    // The context keeps the pair together.
    expect((await readContext(sid)).messages.map(shape)).toEqual(window.map(shape));
  });

  it("joins text content parts with a newline; 'developer' is a system message", async () => {
    const sid = uniqueId("om-parts");
    const res = await post(sid, [
      { role: "developer", content: [{ type: "text", text: "Answer in French." }] },
      {
        role: "user",
        content: [
          { type: "text", text: "first line" },
          { type: "text", text: "second line" },
        ],
      },
    ]);
    expect(res.status, res.text).toBe(201);
    const session = await readSession(sid);
    expect(session.system.map(shape)).toEqual([["system", "Answer in French."]]);
    expect(session.window.map(shape)).toEqual([["user", "first line\nsecond line"]]);
  });

  it("refuses other content parts with a clear 400 and stores nothing", async () => {
    const sid = uniqueId("om-image");
    const before = await observable(sid);
    const res = await post(sid, [
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "https://x.test/a.png" } },
        ],
      },
    ]);
    const body = expectJsonError(res, 400);
    expect(body.error.message).toBe(
      'invalid body: messages.0.content.1 only text parts are stored (got a "image_url" part): send images and files as text or links',
    );
    expect(await observable(sid)).toEqual(before);
  });

  it("refuses content null without tool_calls", async () => {
    const res = await post(uniqueId("om-null"), [{ role: "assistant", content: null }]);
    expect(expectJsonError(res, 400).error.message).toBe("invalid body: messages.0.content may be null only beside tool_calls");
  });

  it("refuses an orphan tool message with 400 and stores nothing: no open call, another call, or a call closed by a later message", async () => {
    const sid = uniqueId("om-orphan");
    const orphan = await post(sid, [{ role: "tool", tool_call_id: "call_nobody", content: "42" }]);
    expect(expectJsonError(orphan, 400).error.message).toMatch(/^messages\.0 is a tool result for call call_nobody/);
    expect((await readSession(sid)).exists).toBe(false);

    // In one request: the result must follow the call.
    const inBatch = await post(sid, [
      { role: "user", content: "hi" },
      { role: "tool", tool_call_id: CALL.id, content: "42" },
    ]);
    expect(expectJsonError(inBatch, 400).error.message).toMatch(/^messages\.1 is a tool result/);

    await append(sid, [{ role: "user", content: "hi" }, { ...OPENAI_TOOL_CALL_MESSAGE, content: "" } as unknown as MessageInput]);
    const before = await observable(sid);
    const wrongCall = await post(sid, [{ role: "tool", tool_call_id: "call_other", content: "42" }]);
    expectJsonError(wrongCall, 400);
    expect(await observable(sid)).toEqual(before);

    // A user message closes the call: a late result is an orphan.
    await append(sid, [{ role: "user", content: "never mind" }]);
    expectJsonError(await post(sid, [{ role: "tool", tool_call_id: CALL.id, content: "42" }]), 400);
    // Parallel calls: one result each, in any order.
    const calls = [
      { ...CALL, id: "call_1" },
      { ...CALL, id: "call_2" },
    ];
    await append(sid, [{ role: "assistant", content: "", tool_calls: calls }]);
    const ok = await post(sid, [
      { role: "tool", tool_call_id: "call_2", content: "b" },
      { role: "tool", tool_call_id: "call_1", content: "a" },
    ]);
    expect(ok.status, ok.text).toBe(201);
  });
});

describe("limits hold on every write path: /messages, /chat and /v1/chat/completions", () => {
  beforeEach(resetLlm);
  afterEach(resetLlm);

  const paths = (sid: string, content: string, count = 1) => ({
    messages: () =>
      call("POST", `/v1/sessions/${sid}/messages`, {
        body: { messages: Array.from({ length: count }, () => ({ role: "user", content })) },
        env: ENV,
      }),
    chat: () => call("POST", `/v1/sessions/${sid}/chat`, { body: { message: content }, env: ENV }),
    proxy: () =>
      call("POST", "/v1/chat/completions", {
        body: {
          model: "fake-model",
          messages: [{ role: "system", content: "sys" }, ...Array.from({ length: count }, () => ({ role: "user", content }))],
        },
        headers: { "X-Memory-Session": sid },
        env: ENV,
      }),
  });
  const ENV = { MAX_MESSAGE_CHARS: "100", MAX_BODY_BYTES: "2048" };

  it.each(["messages", "chat", "proxy"] as const)(
    "%s: MAX_MESSAGE_CHARS=100 refuses 101 characters with 413 and stores nothing",
    async (path) => {
      const sid = uniqueId(`lim-${path}`);
      const res = await paths(sid, "x".repeat(101))[path]();
      expect(res.status, res.text).toBe(413);
      expect(res.text).toContain("exceeds 100 characters");
      expect((await readSession(sid)).exists).toBe(false);
      expect(await chatRequests()).toEqual([]);
      // At the limit it passes.
      expect((await paths(sid, "y".repeat(100))[path]()).status).toBeLessThan(300);
    },
  );

  it.each(["messages", "chat", "proxy"] as const)("%s: a body over MAX_BODY_BYTES is 413", async (path) => {
    const sid = uniqueId(`body-${path}`);
    const res = await paths(sid, "z".repeat(3000))[path]();
    expect(res.status).toBe(413);
    expect((await readSession(sid)).exists).toBe(false);
  });

  it("MAX_MESSAGES_PER_REQUEST counts what a request stores: a native batch; for the proxy its system prompt and new end", async () => {
    const sid = uniqueId("lim-count");
    const env = { MAX_MESSAGES_PER_REQUEST: "2" };
    const three = Array.from({ length: 3 }, (_, i) => ({ role: "user", content: `m${i}` }));
    expectJsonError(await call("POST", `/v1/sessions/${sid}/messages`, { body: { messages: three }, env }), 400);
    // A long conversation sent whole still works: only the system prompt and the last message are stored.
    const history = [
      { role: "system", content: "sys" },
      ...three.flatMap((m) => [m, { role: "assistant", content: "ok" }]),
      { role: "user", content: "last" },
    ];
    const proxied = await call("POST", "/v1/chat/completions", {
      body: { model: "fake-model", messages: history },
      headers: { "X-Memory-Session": sid },
      env,
    });
    expect(proxied.status, proxied.text).toBe(200);
    expect((await readSession(sid)).window.map(shape)).toEqual([
      ["user", "last"],
      ["assistant", "last"],
    ]);
  });

  it("appends with the OpenAI shape through postMessages keep the same limits", async () => {
    const sid = uniqueId("lim-args");
    const res = await postMessages(
      sid,
      [{ role: "assistant", content: "", tool_calls: [{ ...CALL, function: { name: "f", arguments: "a".repeat(101) } }] }],
      { env: ENV },
    );
    expect(res.status).toBe(413);
    expect(res.text).toContain("messages.0.tool_calls.0.function.arguments exceeds 100 characters");
  });
});
