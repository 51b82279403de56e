import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ID_PATTERN } from "../../../src/memory/ids.ts";
import { call, uniqueId } from "../support/helpers.ts";
import {
  chatRequests,
  expectError,
  parseSse,
  postChat,
  readSession,
  resetLlm,
  setLlmMode,
  streamChatTimed,
  turnRequests,
  type SessionView,
} from "../support/chat.ts";

const NO_LLM = { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined };

const ids = (session: SessionView): string[] => session.window.map((m) => m.id);

describe("chat errors", () => {
  beforeEach(resetLlm);
  afterEach(resetLlm);

  it("answers 503 llm_not_configured without an LLM and stores nothing", async () => {
    const sid = uniqueId("no-llm");
    const res = await postChat(sid, { message: "hello?", messageId: "m1", userId: uniqueId("u"), persist: true }, { env: NO_LLM });
    expectError(res, 503, "llm_not_configured");
    const completions = await call("POST", "/v1/chat/completions", {
      body: { model: "m", messages: [{ role: "user", content: "hello?" }] },
      headers: { "X-Memory-Session": sid },
      env: NO_LLM,
    });
    expectError(completions, 503, "llm_not_configured");

    const session = await readSession(sid);
    expect(session.exists).toBe(false);
    expect(session.window).toEqual([]);
    expect(session.system).toEqual([]);
  });

  it("answers 502 llm_failed with a safe message when the LLM fails; the message is stored once and a retry completes the turn", async () => {
    const sid = uniqueId("llm-err");
    const user = uniqueId("u");
    await setLlmMode({ mode: "error", status: 500 });
    const body = { message: "please answer this", messageId: "q-1", userId: user };

    const failed = await postChat(sid, body);
    const error = expectError(failed, 502, "llm_failed");
    expect(error.error.details?.kind).toBe("upstream");
    expect(failed.text).not.toContain("fake server");
    expect(failed.text).not.toContain("fake_error");
    expect(ids(await readSession(sid))).toEqual(["q-1"]);

    // The same failure again: still one copy.
    expectError(await postChat(sid, body), 502, "llm_failed");
    expect(ids(await readSession(sid))).toEqual(["q-1"]);

    await setLlmMode({ mode: "echo" });
    const retried = await postChat(sid, body);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json.reply).toEqual({ id: "q-1.reply", role: "assistant", content: "please answer this" });
    const session = await readSession(sid);
    expect(session.window.map((m) => [m.id, m.role, m.content])).toEqual([
      ["q-1", "user", "please answer this"],
      ["q-1.reply", "assistant", "please answer this"],
    ]);
    // The retried turn's prompt holds the user message once.
    const [prompt] = turnRequests(await chatRequests(), "please answer this").slice(-1);
    expect((prompt?.body.messages ?? []).filter((m) => m.content === "please answer this")).toHaveLength(1);
  });

  it("answers 502 to an empty or blank reply, stores no reply and never duplicates the message on retry", async () => {
    const sid = uniqueId("llm-empty");
    const body = { message: "say something", messageId: "e-1" };

    await setLlmMode({ mode: "empty" });
    expect(expectError(await postChat(sid, body), 502, "llm_failed").error.details?.kind).toBe("bad_output");
    await setLlmMode({ mode: "garbage", text: "  \n\t " });
    expect(expectError(await postChat(sid, body), 502, "llm_failed").error.details?.kind).toBe("bad_output");
    expect(ids(await readSession(sid))).toEqual(["e-1"]);

    await setLlmMode({ mode: "fixed", text: "finally an answer" });
    expect((await postChat(sid, body)).status).toBe(200);
    expect((await postChat(sid, body)).status).toBe(200);
    const session = await readSession(sid);
    expect(session.window.map((m) => [m.id, m.content])).toEqual([
      ["e-1", "say something"],
      ["e-1.reply", "finally an answer"],
    ]);
  });

  it("stores a reply that is not JSON as the text it is (a chat reply is free text)", async () => {
    const sid = uniqueId("llm-garbage");
    await setLlmMode({ mode: "garbage" });
    const res = await postChat(sid, { message: "anything", messageId: "g-1" });
    expect(res.status, res.text).toBe(200);
    expect(res.json.reply.content).toBe("}{ this is not JSON");
    expect((await readSession(sid)).window.map((m) => m.content)).toEqual(["anything", "}{ this is not JSON"]);
  });

  it("answers 502 when the LLM does not answer within OPENAI_TIMEOUT_MS", async () => {
    const sid = uniqueId("llm-slow");
    await setLlmMode({ mode: "timeout", delayMs: 3000 });
    const started = Date.now();
    const res = await postChat(sid, { message: "are you there", messageId: "t-1" }, { env: { OPENAI_TIMEOUT_MS: "500" } });
    const elapsed = Date.now() - started;
    expect(expectError(res, 502, "llm_failed").error.details?.kind).toBe("timeout");
    // It gave up instead of waiting for the slow answer.
    expect(elapsed).toBeLessThan(3000);
    expect(ids(await readSession(sid))).toEqual(["t-1"]);
  });

  it("reports a failing streamed turn as an error event and stores no reply", async () => {
    const sid = uniqueId("llm-stream-err");
    await setLlmMode({ mode: "error", status: 503 });
    const { response, text } = await streamChatTimed(sid, { message: "stream please", messageId: "se-1" });
    expect(response.status).toBe(200);
    const events = parseSse(text);
    expect(events.map((e) => e.event)).toEqual(["error"]);
    const error = JSON.parse(events[0]?.data ?? "{}") as { error?: { code?: string } };
    expect(error.error?.code).toBe("llm_failed");
    expect(ids(await readSession(sid))).toEqual(["se-1"]);
  });

  it("ends a stalled streamed turn with a timeout error event", async () => {
    const sid = uniqueId("llm-stream-slow");
    await setLlmMode({ mode: "timeout", delayMs: 3000 });
    const started = Date.now();
    const { text } = await streamChatTimed(sid, { message: "slow stream", messageId: "ss-1" }, { OPENAI_TIMEOUT_MS: "500" });
    expect(Date.now() - started).toBeLessThan(3000);
    const events = parseSse(text);
    expect(events.map((e) => e.event)).toEqual(["error"]);
    const error = JSON.parse(events[0]?.data ?? "{}") as { error?: { code?: string; details?: { kind?: string } } };
    expect(error.error).toMatchObject({ code: "llm_failed", details: { kind: "timeout" } });
    expect(ids(await readSession(sid))).toEqual(["ss-1"]);
  });

  it("a retried turn answers with the reply that is stored under the reply id", async () => {
    const sid = uniqueId("retry-diff");
    const body = { message: "tell me something", messageId: "d-1" };
    await setLlmMode({ mode: "fixed", text: "first answer" });
    expect((await postChat(sid, body)).json.reply.content).toBe("first answer");

    // The first response was lost on the way; the client retries and the model now says something else.
    await setLlmMode({ mode: "fixed", text: "second answer" });
    const retried = await postChat(sid, body);
    expect(retried.status, retried.text).toBe(200);
    const stored = (await readSession(sid)).window.filter((m) => m.id === retried.json.reply.id);
    expect(stored).toHaveLength(1);
    // What the user is shown and what memory holds for the next turn must be the same reply.
    expect(retried.json.reply.content).toBe(stored[0]?.content);
  });

  it("gives the reply of a maximum-length message id an id the API accepts", async () => {
    const sid = uniqueId("long-id");
    const messageId = `m${"x".repeat(127)}`;
    expect(messageId).toMatch(ID_PATTERN);
    const res = await postChat(sid, { message: "long id", messageId });
    expect(res.status, res.text).toBe(200);
    expect(res.json.reply.id).toMatch(ID_PATTERN);
  });

  it("rejects a chat body with unknown fields or an empty message with 400 and stores nothing", async () => {
    const sid = uniqueId("bad-chat");
    expectError(await postChat(sid, { message: "   " }), 400, "validation_failed");
    const extra = await call("POST", `/v1/sessions/${sid}/chat`, { body: { message: "hi", role: "system" } });
    expect(extra.status).toBe(400);
    expect((await readSession(sid)).exists).toBe(false);
    expect(await chatRequests()).toEqual([]);
  });
});
