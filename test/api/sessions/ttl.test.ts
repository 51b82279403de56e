import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { sessionKeyTtls, shortenSessionTtl, testRedis } from "../support/redis.ts";
import { append, putSettings, readSession, sessionPath, type MessageInput } from "../support/sessions.ts";

const DEFAULT_TTL = 604_800; // SESSION_TTL_SECONDS in wrangler.toml
const NOTES_TTL = 86_400; // NOTES_TTL_SECONDS default
const SESSION_KEYS = ["ids", "meta", "sys", "win"];
const WORKING_KEYS = ["notes", "pad"];

const turn = (id: string): MessageInput[] => [{ id, role: "user", content: `message ${id}` }];
const SYSTEM: MessageInput = { id: "sys", role: "system", content: "Be brief." };

/** Every session key (working memory excluded) has a TTL within (min, max]. */
function expectTtlsWithin(ttls: Record<string, number>, min: number, max: number): void {
  const session = Object.entries(ttls).filter(([suffix]) => !WORKING_KEYS.includes(suffix));
  expect(session.map(([suffix]) => suffix).sort()).toEqual(SESSION_KEYS);
  for (const [suffix, ttl] of session) {
    expect(ttl, suffix).toBeGreaterThan(min);
    expect(ttl, suffix).toBeLessThanOrEqual(max);
  }
}

describe("session idle TTL", () => {
  it("is set on every key of the session; working memory has its own TTL", async () => {
    const sid = uniqueId("ttl");
    const user = uniqueId("ttl-user");
    await append(sid, [SYSTEM, ...turn("u1")], { userId: user });
    expect((await call("PUT", `${sessionPath(sid)}/notes/k`, { body: { value: "v" } })).status).toBe(200);
    expect((await call("POST", `${sessionPath(sid)}/scratchpad`, { body: { entry: "e" } })).status).toBe(200);

    const ttls = await sessionKeyTtls("acme", sid);
    expect(Object.keys(ttls).sort()).toEqual([...SESSION_KEYS, ...WORKING_KEYS].sort());
    expectTtlsWithin(ttls, DEFAULT_TTL - 60, DEFAULT_TTL);
    for (const suffix of WORKING_KEYS) {
      expect(ttls[suffix], suffix).toBeGreaterThan(NOTES_TTL - 60);
      expect(ttls[suffix], suffix).toBeLessThanOrEqual(NOTES_TTL);
    }
    // the indexes that name the session expire too
    expect(await testRedis.ttl(`am:acme:u:${user}:sessions`)).toBeGreaterThan(0);
    expect(await testRedis.ttl("am:acme:sessions")).toBeGreaterThan(0);
  });

  it("is refreshed on every write, on every key", async () => {
    const sid = uniqueId("ttl-refresh");
    await append(sid, [SYSTEM, ...turn("u1")], { env: { SESSION_TTL_SECONDS: "100" } });
    expectTtlsWithin(await sessionKeyTtls("acme", sid), 90, 100);

    // a later write with a longer TTL lengthens every key, including those it did not write (sys)
    await append(sid, turn("u2"), { env: { SESSION_TTL_SECONDS: "300" } });
    expectTtlsWithin(await sessionKeyTtls("acme", sid), 100, 300);

    // and a write with the same TTL brings a nearly expired session back to the full TTL
    await shortenSessionTtl("acme", sid, 30);
    await append(sid, turn("u3"), { env: { SESSION_TTL_SECONDS: "300" } });
    expectTtlsWithin(await sessionKeyTtls("acme", sid), 290, 300);
  });

  it("PUT ttlSeconds sets the session's TTL; null goes back to the default", async () => {
    const sid = uniqueId("ttl-put");
    await append(sid, [SYSTEM, ...turn("u1")]);
    const set = await putSettings(sid, { ttlSeconds: 120 });
    expect(set.settings.ttlSeconds).toBe(120);
    expectTtlsWithin(await sessionKeyTtls("acme", sid), 110, 120);

    await putSettings(sid, { ttlSeconds: null });
    expectTtlsWithin(await sessionKeyTtls("acme", sid), DEFAULT_TTL - 60, DEFAULT_TTL);
  });

  it("an append honours the session's own ttlSeconds", async () => {
    const sid = uniqueId("ttl-override");
    await append(sid, [SYSTEM, ...turn("u1")]);
    await putSettings(sid, { ttlSeconds: 120 });
    expect((await readSession(sid)).settings.ttlSeconds).toBe(120);

    await shortenSessionTtl("acme", sid, 30);
    await append(sid, turn("u2"));
    // refreshed (above 30) to the session's 120 s, not to the deployment default
    expectTtlsWithin(await sessionKeyTtls("acme", sid), 110, 120);
  });
});
