import { afterEach, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { resetLlm } from "../support/chat.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The per-user rate limit counts the user however the request names it (path, `userId` query,
 * `X-Memory-User`, the body's `userId`, the proxy body's `user`, a token's subject), and only valid
 * ids ever become rate-limit keys.
 */

function limited(limit: string) {
  const keys = [uniqueId("rlu-key"), uniqueId("rlu-key")];
  const env = { RATE_LIMIT: limit, API_KEYS: ["acme:acme-key", ...keys.map((k) => `acme:${k}`)].join(","), FACT_EXTRACTION: "off" };
  return { keys, env };
}

afterEach(resetLlm);

/** A JSON body with its size declared, as fetch sends it (the access guard reads only such bodies). */
const sized = (body: unknown) => ({ body, headers: { "content-length": String(new TextEncoder().encode(JSON.stringify(body)).length) } });

describe("the per-user rate limit", () => {
  it("counts a user named only in the proxy body's `user` field", async () => {
    const { keys, env } = limited("2/24h");
    const victim = uniqueId("victim");
    const proxy = (key: string) =>
      call("POST", "/v1/chat/completions", {
        key,
        env,
        ...sized({ model: "gpt-4o-mini", user: victim, messages: [{ role: "user", content: "hi" }] }),
      });
    for (let i = 0; i < 2; i++) {
      const res = await proxy(keys[0]!);
      expect(res.status, res.text).toBe(200);
    }
    // Another key, the same user: the user's window is full.
    expect((await proxy(keys[1]!)).status).toBe(429);
  });

  it("counts the body's user even when the query names a decoy", async () => {
    const { keys, env } = limited("2/24h");
    const victim = uniqueId("victim");
    for (let i = 0; i < 2; i++) {
      const decoy = uniqueId("decoy");
      const res = await call("POST", `/v1/sessions/${uniqueId("rlu-s")}/messages?userId=${decoy}`, {
        key: keys[0]!,
        env,
        ...sized({ userId: victim, messages: [{ role: "user", content: "hi" }] }),
      });
      // The append takes no query parameters, so the decoy is refused outright (stores nothing) - and still counted for the body's user.
      expect(res.status, res.text).toBe(400);
    }
    expect((await call("GET", `/v1/users/${victim}/sessions`, { key: keys[1]!, env })).status).toBe(429);
  });

  it("never makes an invalid user id a rate-limit key", async () => {
    const { keys, env } = limited("100/24h");
    const long = `u${"x".repeat(6000)}`;
    const res = await call("GET", `/v1/sessions/${uniqueId("rlu-s")}/context?userId=${long}`, { key: keys[0]!, env });
    expect(res.status).toBe(400);
    const body = await call("POST", `/v1/sessions/${uniqueId("rlu-s")}/messages`, {
      key: keys[0]!,
      env,
      ...sized({ userId: long, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(body.status).toBe(400);
    expect(await testRedis.keys(`*${"x".repeat(100)}*`)).toEqual([]);
  });
});
