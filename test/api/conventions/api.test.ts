import { Redis } from "@upstash/redis/cloudflare";
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionKeys } from "../../../src/stores/keys.ts";
import { call, uniqueId } from "../support/helpers.ts";
import { resetLlm } from "../support/chat.ts";
import { addFact, factsPath, recall } from "../support/facts.ts";
import { append, expectJsonError } from "../support/sessions.ts";

/** The conventions every route follows (README, "Conventions"). */

const bindings = env as unknown as { UPSTASH_REDIS_REST_URL: string; UPSTASH_REDIS_REST_TOKEN: string };
const decimals = (x: number): number => (String(x).split(".")[1] ?? "").length;
const message = (res: { json: unknown }): string => (res.json as { error: { message: string } }).error.message;

describe("schema errors say where and what, with the bound", () => {
  it.each([
    ["PUT", "/v1/sessions/conv-1", { maxTokens: 10 }, "invalid body: maxTokens must be >= 50"],
    ["PUT", "/v1/sessions/conv-1", { keep: 1.5 }, "invalid body: keep must be an integer"],
    ["PUT", "/v1/sessions/conv-1", { colour: 1 }, "invalid body: colour is not a known field"],
    ["POST", "/v1/sessions/conv-1/messages", { messages: [{ role: "user" }] }, "invalid body: messages.0.content is required"],
    ["POST", "/v1/sessions/conv-1/messages", { messages: [] }, "invalid body: messages must have at least 1 item"],
    [
      "POST",
      "/v1/sessions/conv-1/messages",
      { messages: [{ role: "bot", content: "x" }] },
      'invalid body: messages.0.role must be one of "system", "developer", "user", "assistant", "tool"',
    ],
    ["POST", "/v1/sessions/conv-1/chat", { message: "hi", temperature: 3 }, "invalid body: temperature must be <= 2"],
    ["POST", "/v1/users/u1/facts", { text: "x", importance: 2 }, "invalid body: importance must be <= 1"],
    ["GET", "/v1/sessions/conv-1/context?k=1000", undefined, "invalid query: k must be an integer from 0 to 50"],
    [
      "GET",
      "/v1/sessions/a:b",
      undefined,
      "invalid path: sessionId must be 1-128 characters of A-Z a-z 0-9 _ . - @ +, starting with a letter or digit",
    ],
  ])("%s %s %j", async (method, path, body, expected) => {
    const res = await call(method, path, body === undefined ? {} : { body });
    expectJsonError(res, 400);
    expect(message(res)).toBe(expected);
  });

  it("malformed JSON is invalid_json, not a schema error", async () => {
    const res = await call("POST", "/v1/sessions/conv-1/messages", { raw: '{"messages": [' });
    expect(expectJsonError(res, 400).error.code).toBe("invalid_json");
  });
});

describe("numbers and timestamps", () => {
  it("scores and ratios are rounded to 4 decimals (0.6799999999999999 prints as 0.68)", async () => {
    const sid = uniqueId("round");
    const res = await append(sid, [
      { role: "system", content: "sys" },
      { role: "user", content: "a", importance: 0.5 },
      { role: "assistant", content: "b", importance: 0.5 },
      { role: "user", content: "c", importance: 0.72 },
    ]);
    expect(res.stats.avgImportance).toBe(0.68);
    const state = await call<{ stats: { utilization: number; avgImportance: number } }>("GET", `/v1/sessions/${sid}`);
    expect(state.json.stats.avgImportance).toBe(0.68);
    expect(decimals(state.json.stats.utilization)).toBeLessThanOrEqual(4);

    const uid = uniqueId("round-u");
    await addFact(uid, { text: "the user's cat is called Mochi" });
    const hits = await recall(uid, "what is the cat called", { k: "1" });
    expect(hits).toHaveLength(1);
    expect(decimals(hits[0]?.score ?? 0)).toBeLessThanOrEqual(4);
    expect(decimals(hits[0]?.similarity ?? 0)).toBeLessThanOrEqual(4);
  });

  it("every timestamp is epoch milliseconds, exportedAt and erasedAt too", async () => {
    const uid = uniqueId("ts");
    const sid = uniqueId("ts-s");
    const before = Date.now();
    await append(sid, [{ role: "user", content: "hello" }], { userId: uid });
    const state = await call<{ createdAt: number; updatedAt: number; window: { ts: number }[] }>("GET", `/v1/sessions/${sid}`);
    const exported = await call<{ exportedAt: number }>("GET", `/v1/users/${uid}/export`);
    const erased = await call<{ erasedAt: number }>("DELETE", `/v1/users/${uid}`);
    const after = Date.now();
    for (const t of [
      state.json.createdAt,
      state.json.updatedAt,
      state.json.window[0]?.ts ?? 0,
      exported.json.exportedAt,
      erased.json.erasedAt,
    ]) {
      expect(typeof t).toBe("number");
      expect(t).toBeGreaterThanOrEqual(before - 1000);
      expect(t).toBeLessThanOrEqual(after + 1000);
    }
  });
});

describe("one delete answer: the ids the path names and `deleted`, the number of items removed", () => {
  it("reset, notes, scratchpad, fact and user erase", async () => {
    const uid = uniqueId("del-u");
    const sid = uniqueId("del-s");
    await append(
      sid,
      [
        { role: "user", content: "one" },
        { role: "assistant", content: "two" },
      ],
      { userId: uid },
    );
    await call("PUT", `/v1/sessions/${sid}/notes/a`, { body: { value: "x" } });
    await call("PUT", `/v1/sessions/${sid}/notes/b`, { body: { value: "y" } });
    await call("POST", `/v1/sessions/${sid}/scratchpad`, { body: { entry: "z" } });
    const fact = await addFact(uid, { text: "deletable fact" });

    expect((await call("DELETE", `/v1/sessions/${sid}/notes/a`)).json).toEqual({ sessionId: sid, key: "a", deleted: 1 });
    expect((await call("DELETE", `/v1/sessions/${sid}/notes/a`)).status).toBe(404);
    expect((await call("DELETE", `/v1/sessions/${sid}/notes`)).json).toEqual({ sessionId: sid, deleted: 1 });
    expect((await call("DELETE", `/v1/sessions/${sid}/scratchpad`)).json).toEqual({ sessionId: sid, deleted: 1 });
    expect((await call("DELETE", `${factsPath(uid)}/${fact.id}`)).json).toEqual({ userId: uid, id: fact.id, deleted: 1 });
    expect((await call("DELETE", `/v1/sessions/${sid}`)).json).toEqual({ sessionId: sid, deleted: 2, keptSystem: 0 });
    const erased = await call<Record<string, unknown>>("DELETE", `/v1/users/${uid}`);
    expect(erased.json).toMatchObject({ userId: uid, deleted: 1, done: true, removed: { sessions: 1, messages: 0, facts: 0 } });
  });
});

describe("ids: one pattern, wide enough for e-mail-like user ids", () => {
  beforeEach(resetLlm);
  afterEach(resetLlm);

  it("an e-mail-like user and session id work end to end: messages, chat, facts, the session list, export and erase", async () => {
    const uid = `ana.lima+${crypto.randomUUID().slice(0, 8)}@example.com`;
    const sid = `chat@${uid.split("@")[0]}`;
    await append(sid, [{ role: "user", content: "I live in Lisbon", persist: true }], { userId: uid });
    const chat = await call("POST", `/v1/sessions/${encodeURIComponent(sid)}/chat`, {
      body: { message: "where do I live?", userId: uid, messageId: "q1" },
    });
    expect(chat.status, chat.text).toBe(200);
    await addFact(uid, { text: "prefers the window seat" });
    // The facts helpers percent-encode the path; raw, it names the same user.
    expect((await recall(uid, "window seat", { k: "1" })).map((f) => f.text)).toEqual(["prefers the window seat"]);
    const raw = await call<{ facts: { text: string }[] }>("GET", `/v1/users/${uid}/facts?query=window%20seat&k=1`);
    expect(raw.json.facts.map((f) => f.text)).toEqual(["prefers the window seat"]);
    const list = await call<{ sessions: { sessionId: string }[] }>("GET", `/v1/users/${uid}/sessions`);
    expect(list.json.sessions.map((s) => s.sessionId)).toEqual([sid]);
    const exported = await call<{ sessions: { sessionId: string }[]; facts: { text: string }[] }>("GET", `/v1/users/${uid}/export`);
    expect(exported.json.sessions.map((s) => s.sessionId)).toEqual([sid]);
    // the chat turn's question is kept as an episode beside them
    expect(exported.json.facts.map((f) => f.text).sort()).toEqual(["I live in Lisbon", "prefers the window seat", "where do I live?"]);

    const erased = await call("DELETE", `/v1/users/${encodeURIComponent(uid)}`);
    expect(erased.status, erased.text).toBe(200);
    // Every key of the session is gone, the turn outcomes too.
    const redis = new Redis({ url: bindings.UPSTASH_REDIS_REST_URL, token: bindings.UPSTASH_REDIS_REST_TOKEN, enableTelemetry: false });
    expect(await redis.exists(...Object.values(sessionKeys({ tenant: "acme", sessionId: sid })))).toBe(0);
  });

  it.each(["a%3Ab", "a%2Fb", "a%20b", "a%25b", "a*b", "a%22b"])("still refuses %s in a path", async (id) => {
    expectJsonError(await call("GET", `/v1/users/${id}/sessions`), 400);
  });
});
