import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { testRedis } from "../support/redis.ts";
import { append, sessionPath } from "../support/sessions.ts";

/**
 * A user token (minted without a session) reaches every session its user owns - a chat app's
 * history sidebar needs one token, not one per session - and starts new ones with a chat turn.
 * Another user's session, and one nobody owns, stay out of its reach; a session-bound token still
 * reaches only its session.
 */

const ENV = { TOKEN_SECRET: "test-token-secret-0123456789abcdef", API_KEYS: "acme:acme-key" };

async function mint(userId: string, sessionId?: string): Promise<string> {
  const body = sessionId === undefined ? { userId } : { userId, sessionId };
  const res = await call<{ token: string }>("POST", "/v1/tokens", { key: "acme-key", env: ENV, body });
  expect(res.status, res.text).toBe(201);
  return res.json.token;
}

const as = (token: string, init: { body?: unknown; headers?: Record<string, string> } = {}) => ({ ...init, key: token, env: ENV });

describe("a user token and its user's sessions", () => {
  it("reads and writes every session its user owns, and lists them", async () => {
    const ana = uniqueId("ana");
    const [s1, s2] = [uniqueId("ana-s1"), uniqueId("ana-s2")];
    await append(s1, [{ role: "user", content: "first conversation" }], { userId: ana });
    await append(s2, [{ role: "user", content: "second conversation" }], { userId: ana });
    const token = await mint(ana);

    const listed = await call<{ sessions: { sessionId: string }[] }>("GET", `/v1/users/${ana}/sessions`, as(token));
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.sessions.map((s) => s.sessionId).sort()).toEqual([s1, s2].sort());
    for (const [sid, text] of [
      [s1, "first conversation"],
      [s2, "second conversation"],
    ] as const) {
      const state = await call<{ window: { content: string }[] }>("GET", sessionPath(sid), as(token));
      expect(state.status, state.text).toBe(200);
      expect(state.json.window.map((m) => m.content)).toEqual([text]);
      expect((await call("GET", `${sessionPath(sid)}/context`, as(token))).status).toBe(200);
      expect((await call("GET", `${sessionPath(sid)}/history`, as(token))).status).toBe(200);
      expect((await call("PUT", `${sessionPath(sid)}/notes/plan`, as(token, { body: { value: "v" } }))).status).toBe(200);
    }
    const more = await call(
      "POST",
      `${sessionPath(s2)}/messages`,
      as(token, { body: { messages: [{ role: "user", content: "and more" }] } }),
    );
    expect(more.status, more.text).toBe(201);
  });

  it("starts a new session with a chat turn, which its user then owns", async () => {
    const ana = uniqueId("ana");
    const fresh = uniqueId("ana-new");
    const token = await mint(ana);
    // Nothing to read yet: a session that does not exist is not the user's.
    expect((await call("GET", sessionPath(fresh), as(token))).status).toBe(403);
    const turn = await call("POST", `${sessionPath(fresh)}/chat`, as(token, { body: { message: "hello there" } }));
    expect(turn.status, turn.text).toBe(200);
    expect(await testRedis.hget(`am:acme:s:${fresh}:meta`, "userId")).toBe(ana);
    expect((await call("GET", sessionPath(fresh), as(token))).status).toBe(200);
  });

  it("reaches nothing of another user's session, nor of one nobody owns", async () => {
    const ana = uniqueId("ana");
    const bob = uniqueId("bob");
    const bobs = uniqueId("bob-s");
    const anon = uniqueId("anon-s");
    await append(bobs, [{ role: "user", content: "bob's secret" }], { userId: bob });
    await append(anon, [{ role: "user", content: "nobody's secret" }]);
    const before = [await testRedis.hgetall(`am:acme:s:${bobs}:meta`), await testRedis.hgetall(`am:acme:s:${anon}:meta`)];
    const token = await mint(ana);
    for (const sid of [bobs, anon]) {
      const attempts = [
        call("GET", sessionPath(sid), as(token)),
        call("GET", `${sessionPath(sid)}/context`, as(token)),
        call("PUT", `${sessionPath(sid)}/notes/plan`, as(token, { body: { value: "hijacked" } })),
        call("POST", `${sessionPath(sid)}/messages`, as(token, { body: { messages: [{ role: "user", content: "hijacked" }] } })),
        call("POST", `${sessionPath(sid)}/chat`, as(token, { body: { message: "hijacked" } })),
        call(
          "POST",
          "/v1/chat/completions",
          as(token, { body: { model: "m", messages: [{ role: "user", content: "hijacked" }] }, headers: { "x-memory-session": sid } }),
        ),
        call("DELETE", sessionPath(sid), as(token)),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status, res.text).toBe(403);
        expect(res.text).not.toContain("secret");
      }
    }
    expect([await testRedis.hgetall(`am:acme:s:${bobs}:meta`), await testRedis.hgetall(`am:acme:s:${anon}:meta`)]).toEqual(before);
    expect(await testRedis.hget(`am:acme:s:${bobs}:notes`, "plan")).toBeNull();
  });

  it("a session-bound token still reaches only its own session", async () => {
    const ana = uniqueId("ana");
    const [s1, s2] = [uniqueId("ana-s1"), uniqueId("ana-s2")];
    await append(s1, [{ role: "user", content: "one" }], { userId: ana });
    await append(s2, [{ role: "user", content: "two" }], { userId: ana });
    const bound = await mint(ana, s1);
    expect((await call("GET", sessionPath(s1), as(bound))).status).toBe(200);
    const other = await call<{ error: { message: string } }>("GET", sessionPath(s2), as(bound));
    expect(other.status).toBe(403);
    expect(other.json.error.message).toMatch(/another session/);
  });
});
