import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { testRedis } from "../support/redis.ts";
import { append, sessionPath } from "../support/sessions.ts";

/**
 * A token minted for one user with another user's session id reaches nothing of that session, on
 * every session route: the owner rule runs after the token's own binding check.
 */

const ENV = { TOKEN_SECRET: "test-token-secret-0123456789abcdef", API_KEYS: "acme:acme-key" };

async function mint(userId: string, sessionId: string): Promise<string> {
  const res = await call<{ token: string }>("POST", "/v1/tokens", { key: "acme-key", env: ENV, body: { userId, sessionId } });
  expect(res.status, res.text).toBe(201);
  return res.json.token;
}

/** Every session route a token may be classified for, with a body where it needs one. */
const routes = (sid: string): { method: string; path: string; body?: unknown; headers?: Record<string, string> }[] => [
  { method: "GET", path: sessionPath(sid) },
  { method: "GET", path: `${sessionPath(sid)}/context` },
  { method: "GET", path: `${sessionPath(sid)}/history` },
  { method: "GET", path: `${sessionPath(sid)}/notes` },
  { method: "GET", path: `${sessionPath(sid)}/notes/plan` },
  { method: "GET", path: `${sessionPath(sid)}/scratchpad` },
  { method: "PUT", path: `${sessionPath(sid)}/notes/plan`, body: { value: "hijacked" } },
  { method: "DELETE", path: `${sessionPath(sid)}/notes/plan` },
  { method: "DELETE", path: `${sessionPath(sid)}/notes` },
  { method: "POST", path: `${sessionPath(sid)}/scratchpad`, body: { entry: "hijacked" } },
  { method: "DELETE", path: `${sessionPath(sid)}/scratchpad` },
  { method: "PUT", path: sessionPath(sid), body: { ttlSeconds: 60 } },
  { method: "POST", path: `${sessionPath(sid)}/compress?force=true` },
  { method: "POST", path: `${sessionPath(sid)}/messages`, body: { messages: [{ role: "user", content: "hijacked" }] } },
  { method: "POST", path: `${sessionPath(sid)}/chat`, body: { message: "hijacked" } },
  {
    method: "POST",
    path: "/v1/chat/completions",
    body: { model: "m", messages: [{ role: "user", content: "hijacked" }] },
    headers: { "x-memory-session": sid },
  },
  { method: "DELETE", path: sessionPath(sid) },
];

describe("a token bound to another user's session", () => {
  it("is refused on every session route and changes nothing", async () => {
    const alice = uniqueId("alice");
    const bob = uniqueId("bob");
    const sid = uniqueId("alice-s");
    await append(sid, [{ id: "a1", role: "user", content: "alice's secret plan" }], { userId: alice });
    expect((await call("PUT", `${sessionPath(sid)}/notes/plan`, { body: { value: "alice's note" } })).status).toBe(200);
    const before = JSON.stringify(await testRedis.hgetall(`am:acme:s:${sid}:meta`));
    const token = await mint(bob, sid);
    for (const route of routes(sid)) {
      const res = await call(route.method, route.path, { key: token, env: ENV, body: route.body, headers: route.headers });
      expect(res.status, `${route.method} ${route.path}: ${res.text}`).toBe(403);
      expect(res.text).not.toContain("alice's");
    }
    expect(JSON.stringify(await testRedis.hgetall(`am:acme:s:${sid}:meta`))).toBe(before);
    expect(await testRedis.hget(`am:acme:s:${sid}:notes`, "plan")).toBe("alice's note");
    expect(await testRedis.ttl(`am:acme:s:${sid}:win`)).toBeGreaterThan(60);
  });

  it("a token of the owner still reaches the session, and one on a session nobody owns yet works too", async () => {
    const alice = uniqueId("alice");
    const sid = uniqueId("alice-s");
    await append(sid, [{ id: "a1", role: "user", content: "hello" }], { userId: alice });
    const own = await call("GET", sessionPath(sid), { key: await mint(alice, sid), env: ENV });
    expect(own.status, own.text).toBe(200);
    const fresh = uniqueId("fresh-s");
    const token = await mint(alice, fresh);
    const note = await call("PUT", `${sessionPath(fresh)}/notes/k`, { key: token, env: ENV, body: { value: "v" } });
    expect(note.status, note.text).toBe(200);
  });
});

describe("a token's tenant", () => {
  it("must be one API_KEYS configures: a well-signed token for another tenant is refused", async () => {
    const { sign } = await import("hono/jwt");
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: "agent-memory",
      sub: "ana",
      ten: "ghost",
      scp: ["read", "write", "chat"],
      jti: "tk_ghost",
      iat: now,
      exp: now + 600,
    };
    const token = await sign(claims, ENV.TOKEN_SECRET, "HS256");
    const res = await call("GET", "/v1/users/ana/facts", { key: token, env: ENV });
    expect(res.status, res.text).toBe(401);
    const known = await sign({ ...claims, ten: "acme", jti: "tk_known" }, ENV.TOKEN_SECRET, "HS256");
    expect((await call("GET", "/v1/users/ana/sessions", { key: known, env: ENV })).status).toBe(200);
  });
});

describe("a chat-only token and the inline trace", () => {
  it("sees no fact texts through ?trace=true (GET facts is 403 for it)", async () => {
    const user = uniqueId("chatonly");
    const sid = uniqueId("chatonly-s");
    const secret = `Allergic to kiwi ${uniqueId("x")}`;
    const fact = await call("POST", `/v1/users/${user}/facts`, {
      key: "acme-key",
      env: ENV,
      body: { text: secret, type: "fact", importance: 0.9 },
    });
    expect(fact.status, fact.text).toBe(201);
    const minted = await call<{ token: string }>("POST", "/v1/tokens", {
      key: "acme-key",
      env: ENV,
      body: { userId: user, sessionId: sid, scopes: ["chat"] },
    });
    const token = minted.json.token;
    expect((await call("GET", `/v1/users/${user}/facts`, { key: token, env: ENV })).status).toBe(403);
    const res = await call<{ trace?: { recall: { candidates: { id: string; text: string }[] } | null } }>(
      "POST",
      `${sessionPath(sid)}/chat?trace=true`,
      {
        key: token,
        env: ENV,
        body: { message: "which fruit am I allergic to, kiwi?" },
      },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json.trace?.recall?.candidates.length ?? 0).toBeGreaterThan(0);
    expect(JSON.stringify(res.json.trace)).not.toContain(secret);
  });
});
