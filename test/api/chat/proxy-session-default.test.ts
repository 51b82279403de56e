import type OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { expectError, readSession, resetLlm, setLlmMode } from "../support/chat.ts";

/**
 * The proxy's session default (docs/api.md, "The OpenAI-compatible proxy"): without
 * X-Memory-Session a key's request continues the memory user's conversation, whichever way the
 * user is named; a token still has to name its session.
 */

type Completion = OpenAI.Chat.Completions.ChatCompletion;

const TOKEN_ENV = { TOKEN_SECRET: "test-token-secret-0123456789abcdef" };
const NO_LLM = { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined };
const MODEL = "fake-model";
const ask = (content: string, extra: Record<string, unknown> = {}) => ({ model: MODEL, messages: [{ role: "user", content }], ...extra });
const pairs = (messages: { role: string; content: string }[]) => messages.map((m) => [m.role, m.content]);

describe("POST /v1/chat/completions without X-Memory-Session", () => {
  beforeEach(async () => {
    await resetLlm();
    await setLlmMode({ mode: "echo", chunkDelayMs: 1 });
  });
  afterEach(resetLlm);

  it("uses the X-Memory-User header as the session when it is the only id sent", async () => {
    const user = uniqueId("hdr-user");
    const res = await call<Completion>("POST", "/v1/chat/completions", { body: ask("hello from ada"), headers: { "x-memory-user": user } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.choices[0]?.message.content).toBe("hello from ada");
    expect(res.headers.get("x-memory-session")).toBe(user);
    const session = await readSession(user);
    expect(session.userId).toBe(user);
    expect(pairs(session.window)).toEqual([
      ["user", "hello from ada"],
      ["assistant", "hello from ada"],
    ]);
  });

  it("follows the memory user: X-Memory-User overrides the user field for the session too", async () => {
    const named = uniqueId("named");
    const field = uniqueId("field");
    const res = await call<Completion>("POST", "/v1/chat/completions", {
      body: ask("which session", { user: field }),
      headers: { "x-memory-user": named },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("x-memory-session")).toBe(named);
    expect((await readSession(field)).exists).toBe(false);
  });

  it("still takes an explicit X-Memory-Session over the user", async () => {
    const user = uniqueId("u");
    const sid = uniqueId("explicit");
    const res = await call("POST", "/v1/chat/completions", {
      body: ask("explicit"),
      headers: { "x-memory-user": user, "x-memory-session": sid },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("x-memory-session")).toBe(sid);
    expect((await readSession(user)).exists).toBe(false);
  });

  it("answers 503 llm_not_configured (not 400) with only X-Memory-User when no LLM is set up, storing nothing", async () => {
    const user = uniqueId("no-llm");
    const res = await call("POST", "/v1/chat/completions", { body: ask("hello?"), headers: { "x-memory-user": user }, env: NO_LLM });
    expectError(res, 503, "llm_not_configured");
    expect((await readSession(user)).exists).toBe(false);
  });

  it("refuses a request that names no user and no session, and a bad X-Memory-User, changing nothing", async () => {
    const none = await call("POST", "/v1/chat/completions", { body: ask("who") });
    expect(expectError(none, 400, "validation_failed").error.message).toMatch(/x-memory-session/i);
    const bad = await call("POST", "/v1/chat/completions", { body: ask("who"), headers: { "x-memory-user": "no spaces allowed" } });
    expectError(bad, 400, "validation_failed");
    const badField = await call("POST", "/v1/chat/completions", { body: ask("who", { user: "a:b c" }) });
    expectError(badField, 400, "validation_failed");
  });

  it("keeps a token's rule: it must send its own session, the user alone is not enough", async () => {
    const user = uniqueId("tok-user");
    const sid = uniqueId("tok-session");
    const minted = await call<{ token: string }>("POST", "/v1/tokens", { body: { userId: user, sessionId: sid }, env: TOKEN_ENV });
    expect(minted.status, minted.text).toBe(201);
    const token = minted.json.token;
    const bare = await call("POST", "/v1/chat/completions", {
      key: token,
      body: ask("hi"),
      headers: { "x-memory-user": user },
      env: TOKEN_ENV,
    });
    expectError(bare, 403, "forbidden");
    expect((await readSession(user)).exists).toBe(false);
    const own = await call("POST", "/v1/chat/completions", {
      key: token,
      body: ask("hi"),
      headers: { "x-memory-session": sid },
      env: TOKEN_ENV,
    });
    expect(own.status, own.text).toBe(200);
    expect(own.headers.get("x-memory-session")).toBe(sid);
  });
});
