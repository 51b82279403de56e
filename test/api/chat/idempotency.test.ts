import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import {
  chatRequests,
  parseSse,
  putSettings,
  readHistory,
  readSession,
  resetLlm,
  setLlmMode,
  turnRequests,
  type ChatReplyBody,
} from "../support/chat.ts";
import { compress } from "../support/llm.ts";
import { memoryClient } from "../support/openai.ts";

const MODEL = "fake-model";
const pairs = (messages: { role: string; content: string }[]) => messages.map((m) => [m.role, m.content]);

/** `POST /chat` with an optional Idempotency-Key header. */
function chat(sessionId: string, body: Record<string, unknown>, key?: string) {
  return call<ChatReplyBody>("POST", `/v1/sessions/${sessionId}/chat`, {
    body,
    headers: key === undefined ? {} : { "Idempotency-Key": key },
  });
}

describe("honest idempotency: a retry is recognized only by an explicit key", () => {
  beforeEach(async () => {
    await resetLlm();
    await setLlmMode({ mode: "echo", chunkDelayMs: 1 });
  });
  afterEach(resetLlm);

  it("proxy: the same message twice without a key is two turns (two LLM calls, two stored pairs)", async () => {
    const sid = uniqueId("idem-nokey");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    const system = { role: "system", content: "Be brief." } as const;
    for (let i = 0; i < 2; i++) {
      // A memory-proxy client sends only its system prompt and the new message each turn.
      const res = await openai.chat.completions.create({ model: MODEL, messages: [system, { role: "user", content: "ok" }] });
      expect(res.choices[0]?.message.content).toBe("ok");
    }
    await drain();
    expect(turnRequests(await chatRequests(), "ok")).toHaveLength(2);
    expect(pairs((await readSession(sid)).window)).toEqual([
      ["user", "ok"],
      ["assistant", "ok"],
      ["user", "ok"],
      ["assistant", "ok"],
    ]);
  });

  it("proxy: with the same Idempotency-Key one LLM call and one stored pair; a streamed retry answers from storage", async () => {
    const sid = uniqueId("idem-key");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    await setLlmMode({ mode: "fixed", text: "the first answer" });
    const headers = { "Idempotency-Key": "turn-ok-1" };
    const messages = [{ role: "user", content: "ok" }] as const;
    const first = await openai.chat.completions.create({ model: MODEL, messages: [...messages] }, { headers });
    await setLlmMode({ mode: "fixed", text: "a different answer" });
    const again = await openai.chat.completions.create({ model: MODEL, messages: [...messages] }, { headers });
    const stream = await openai.chat.completions.create({ model: MODEL, stream: true, messages: [...messages] }, { headers });
    let streamed = "";
    const finishes: (string | null)[] = [];
    for await (const chunk of stream) {
      streamed += chunk.choices[0]?.delta.content ?? "";
      finishes.push(chunk.choices[0]?.finish_reason ?? null);
    }
    await drain();

    expect(first.choices[0]?.message.content).toBe("the first answer");
    expect(again.choices[0]?.message.content).toBe("the first answer");
    expect(streamed).toBe("the first answer");
    expect(finishes.at(-1)).toBe("stop");
    expect(turnRequests(await chatRequests(), "ok")).toHaveLength(1);
    expect(pairs((await readSession(sid)).window)).toEqual([
      ["user", "ok"],
      ["assistant", "the first answer"],
    ]);
    // Another key is another turn.
    await openai.chat.completions.create({ model: MODEL, messages: [...messages] }, { headers: { "Idempotency-Key": "turn-ok-2" } });
    await drain();
    expect(pairs((await readSession(sid)).window)).toHaveLength(4);
  });

  it("proxy: a retried tool-call turn answers with the recorded tool calls", async () => {
    const sid = uniqueId("idem-tools");
    const { openai, drain } = memoryClient(sid, uniqueId("u"));
    await setLlmMode({ mode: "tools", toolCalls: [{ name: "lookup", arguments: '{"q":"x"}' }] });
    const headers = { "Idempotency-Key": "tools-1" };
    const body = {
      model: MODEL,
      tools: [{ type: "function" as const, function: { name: "lookup" } }],
      messages: [{ role: "user" as const, content: "look it up" }],
    };
    const first = await openai.chat.completions.create(body, { headers });
    const again = await openai.chat.completions.create(body, { headers });
    await drain();
    expect(again.choices[0]?.finish_reason).toBe("tool_calls");
    expect(again.choices[0]?.message.content).toBeNull();
    expect(again.choices[0]?.message.tool_calls).toEqual(first.choices[0]?.message.tool_calls);
    expect(turnRequests(await chatRequests(), "look it up")).toHaveLength(1);
    expect((await readSession(sid)).window).toHaveLength(2);
  });

  it("/chat: the same message twice without a key or message id is two turns; with the same header one", async () => {
    const sid = uniqueId("idem-chat");
    expect((await chat(sid, { message: "ok" })).status).toBe(200);
    expect((await chat(sid, { message: "ok" })).status).toBe(200);
    expect(pairs((await readSession(sid)).window)).toEqual([
      ["user", "ok"],
      ["assistant", "ok"],
      ["user", "ok"],
      ["assistant", "ok"],
    ]);

    const keyed = uniqueId("idem-chat-key");
    const a = await chat(keyed, { message: "ok" }, "k-1");
    const b = await chat(keyed, { message: "ok" }, "k-1");
    expect(b.status, b.text).toBe(200);
    expect(b.json.reply).toEqual(a.json.reply);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(a.headers.get("idempotent-replayed")).toBeNull();
    expect(pairs((await readSession(keyed)).window)).toEqual([
      ["user", "ok"],
      ["assistant", "ok"],
    ]);
    expect(turnRequests(await chatRequests(), "ok")).toHaveLength(3);
  });

  it("a retried turn whose reply was already folded into the summary still answers from storage", async () => {
    const sid = uniqueId("idem-folded");
    await putSettings(sid, { keep: 0 });
    await setLlmMode({ mode: "fixed", text: "the door is blue" });
    const first = await chat(sid, { message: "what colour is the door?", messageId: "door-1" });
    expect(first.status, first.text).toBe(200);
    await setLlmMode({ mode: "summary" });
    const folded = await compress(sid, { force: true });
    expect(folded.compressed).toBe(true);
    expect((await readSession(sid)).window).toEqual([]);
    expect((await readHistory(sid)).archived.map((m) => m.id)).toEqual(["door-1", "door-1.reply"]);

    await setLlmMode({ mode: "fixed", text: "something else entirely" });
    const retried = await chat(sid, { message: "what colour is the door?", messageId: "door-1" });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json.reply).toEqual({ id: "door-1.reply", role: "assistant", content: "the door is blue" });
    // Nothing stored again, no second model call for the question.
    expect((await readSession(sid)).window).toEqual([]);
    expect(turnRequests(await chatRequests(), "what colour is the door?")).toHaveLength(1);

    // Streamed, the retry is one delta with the recorded reply and the done event.
    const res = await call("POST", `/v1/sessions/${sid}/chat`, {
      body: { message: "what colour is the door?", messageId: "door-1", stream: true },
    });
    const events = parseSse(res.text);
    expect(events.map((e) => e.event)).toEqual(["delta", "done"]);
    expect(JSON.parse(events[1]?.data ?? "{}")).toMatchObject({ reply: { id: "door-1.reply", content: "the door is blue" } });
  });

  it("concurrent calls with one key store one reply", async () => {
    const sid = uniqueId("idem-race");
    await setLlmMode({ mode: "echo", delayMs: 200 });
    const [a, b] = await Promise.all([
      chat(sid, { message: "at the same time" }, "race-1"),
      chat(sid, { message: "at the same time" }, "race-1"),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.json.reply).toEqual(a.json.reply);
    expect(pairs((await readSession(sid)).window)).toEqual([
      ["user", "at the same time"],
      ["assistant", "at the same time"],
    ]);
  });

  it("refuses an Idempotency-Key that is not printable ASCII or too long, before anything is stored", async () => {
    const sid = uniqueId("idem-bad");
    const long = await chat(sid, { message: "hi" }, "k".repeat(257));
    expect(long.status).toBe(400);
    expect((long.json as unknown as { error: { message: string } }).error.message).toBe(
      "invalid header: idempotency-key must be at most 256 characters",
    );
    const proxy = await call("POST", "/v1/chat/completions", {
      body: { model: MODEL, messages: [{ role: "user", content: "hi" }] },
      headers: { "X-Memory-Session": sid, "Idempotency-Key": "k".repeat(300) },
    });
    expect(proxy.status).toBe(400);
    expect(proxy.json).toMatchObject({ error: { type: "invalid_request_error", code: "validation_failed", param: null } });
    expect((await readSession(sid)).exists).toBe(false);
    expect(await chatRequests()).toEqual([]);
  });
});

describe("OpenAI-compatible model list", () => {
  it("models.list() through the official client answers the upstream's models", async () => {
    const { openai } = memoryClient(uniqueId("models"), uniqueId("u"));
    const models: OpenAI.Models.Model[] = [];
    for await (const model of openai.models.list()) models.push(model);
    expect(models.map((m) => m.id)).toEqual(["fake-model"]);
    expect(models[0]).toMatchObject({ object: "model" });
  });

  it("answers 401 in OpenAI's error shape without a valid key, and 503 without an LLM", async () => {
    const { openai } = memoryClient(uniqueId("models"), uniqueId("u"), { key: "wrong-key" });
    const err = await openai.models.list().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((err as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({ type: "authentication_error", code: "unauthorized" });
    const none = await call("GET", "/v1/models", { env: { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined } });
    expect(none.status).toBe(503);
    expect(none.headers.get("retry-after")).not.toBeNull();
    expect(none.json).toMatchObject({ error: { type: "server_error", code: "llm_not_configured" } });
  });

  it("with the LLM down answers 502 in words that fit a listing (no message was stored)", async () => {
    // nothing listens on port 9 (discard): the connection is refused at once
    const down = await call("GET", "/v1/models", { env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } });
    expect(down.status, down.text).toBe(502);
    const error = (down.json as { error: { message: string; type: string; code: string } }).error;
    expect(error).toMatchObject({ type: "server_error", code: "llm_failed" });
    expect(error.message).toMatch(/^the LLM (could not list its models|did not list its models in time); retry shortly$/);
    expect(error.message).not.toMatch(/stored|idempotency/);
  });
});
