import { afterEach, describe, expect, it, vi } from "vitest";
import type { TenantStats } from "../../../src/memory/observe/metrics.ts";
import { call, uniqueId } from "../support/helpers.ts";
import { resetLlm, setLlmMode } from "../support/llm.ts";
import { rounds, sessionPath, type MessageInput } from "../support/sessions.ts";
import { testRedis } from "../support/redis.ts";

const HOUR = 3_600_000;

/** A tenant of its own per test, so the figures are exactly what the test wrote. */
function tenant() {
  const name = uniqueId("st").replace(/-/g, "");
  const key = `${name}-secret-key`;
  const env = { API_KEYS: `${name}:${key}` };
  const as = { key, env };
  return {
    name,
    append: async (sid: string, messages: MessageInput[], userId?: string) => {
      const res = await call<{ added: { tokens: number; duplicate: boolean }[] }>("POST", `${sessionPath(sid)}/messages`, {
        ...as,
        body: { userId, messages },
      });
      expect(res.status, res.text).toBe(201);
      return res.json.added.filter((a) => !a.duplicate).reduce((sum, a) => sum + a.tokens, 0);
    },
    call: <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => call<T>(method, path, { ...as, body }),
    stats: async () => {
      const res = await call<TenantStats>("GET", "/v1/stats", as);
      expect(res.status, res.text).toBe(200);
      return res.json;
    },
  };
}

afterEach(async () => {
  vi.restoreAllMocks();
  await resetLlm();
});

describe("GET /v1/stats", () => {
  it("matches what a seeded tenant did", async () => {
    const t = tenant();
    const user = uniqueId("st-user");
    const [a, b, c] = [uniqueId("st-a"), uniqueId("st-b"), uniqueId("st-c")];
    let tokens = 0;
    tokens += await t.append(a, rounds("a", 2), user);
    tokens += await t.append(b, rounds("b", 4), user);
    tokens += await t.append(c, rounds("c", 14), user);
    // A retried message is not stored twice, so it is not counted twice either.
    tokens += await t.append(c, rounds("c", 2));

    for (const [text, type] of [
      ["The user likes green tea", "preference"],
      ["The user lives in Porto", "fact"],
      ["The user prefers short answers", "preference"],
    ] as const) {
      expect((await t.call("POST", `/v1/users/${user}/facts`, { text, type })).status).toBe(201);
    }
    // Two reads asking for recall (one finds the tea, one finds nothing above the minimum), one without.
    const hit = await t.call<{ recalled: unknown[] }>(
      "GET",
      `${sessionPath(a)}/context?userId=${user}&query=${encodeURIComponent("green tea")}`,
    );
    expect(hit.json.recalled.length).toBeGreaterThan(0);
    const miss = await t.call<{ recalled: unknown[] }>("GET", `${sessionPath(a)}/context?userId=${user}&query=x&k=0`);
    expect(miss.json.recalled).toEqual([]);
    await t.call("GET", `${sessionPath(b)}/context`);

    await setLlmMode({ mode: "summary" });
    const compressed = await t.call<{ compressed: boolean; ratio: number }>("POST", `${sessionPath(c)}/compress?force=true`);
    expect(compressed.json.compressed, compressed.text).toBe(true);
    vi.spyOn(console, "error").mockImplementation(() => {});
    await setLlmMode({ mode: "error", status: 500 });
    const failed = await t.call<{ compressed: boolean; reason: string }>("POST", `${sessionPath(b)}/compress?force=true`);
    expect(failed.json.reason, failed.text).toBe("summarizer_failed");
    // Refused requests are not counted.
    expect((await t.call("GET", `${sessionPath("bad id")}/context`)).status).toBe(400);

    const stats = await t.stats();
    expect(stats.activeSessions).toBe(3);
    expect(stats.messages).toBe(2 + 4 + 14);
    expect(stats.tokens).toBe(tokens);
    expect(stats.sessionLength).toEqual({ average: Math.round((20 / 3) * 10_000) / 10_000, p95: 14, sessions: 3 });
    // the three written facts; the appends' messages say nothing of the user, so no episode
    expect(stats.facts).toEqual({
      total: 3,
      byType: { fact: 1, preference: 2, context: 0, temporary: 0, experience: 0, episode: 0 },
      truncated: false,
    });
    expect(stats.compressions).toEqual({ count: 1, averageRatio: compressed.json.ratio });
    expect(stats.summarizerFailures).toBe(1);
    expect(stats.recall).toEqual({ contextReads: 3, queries: 1, hits: 1, hitRate: 1 });
    expect(stats.rateLimited).toBe(0);
    // 4 appends, 3 fact writes, 3 context reads, 2 compressions (the stats read itself is not in yet).
    expect(stats.requests).toBe(12);
    expect(stats.latency["GET /v1/sessions/:sessionId/context"]?.samples).toBe(3);
    expect(stats.latency["POST /v1/sessions/:sessionId/messages"]?.samples).toBe(4);
    const context = stats.latency["GET /v1/sessions/:sessionId/context"];
    expect(context?.p50).toBeLessThanOrEqual(context?.p95 ?? -1);
    expect(stats.alerts).toEqual([]);
  });

  it("raises an alert when the last hour's average session length jumps above the day's", async () => {
    const t = tenant();
    // The day before: 10 sessions of 4 messages each, spread over earlier hours.
    const hour = Math.floor(Date.now() / HOUR) * HOUR;
    for (let h = 1; h <= 5; h++) {
      await testRedis.incrby(`am:${t.name}:obs:hm:${hour - h * HOUR}`, 8);
      await testRedis.pfadd(`am:${t.name}:obs:hs:${hour - h * HOUR}`, `day-${h}-1`, `day-${h}-2`);
    }
    // A normal hour: two sessions of 4 messages, no alert.
    await t.append(uniqueId("calm"), rounds("n", 2));
    await t.append(uniqueId("calm"), rounds("n", 2));
    expect((await t.stats()).alerts).toEqual([]);

    // A script hammering one session.
    const script = uniqueId("burst");
    for (let i = 0; i < 3; i++) await t.append(script, rounds(`b${i}`, 50));
    const { alerts } = await t.stats();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: "session_length_jump", dayAverage: 4 });
    expect(alerts[0]?.lastHourAverage).toBeGreaterThanOrEqual(3 * 4);
  });
});

describe("request logs", () => {
  it("one info line per request with its id, tenant, session, route, status and duration; never contents", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    const sid = uniqueId("log-s");
    const res = await call("POST", `${sessionPath(sid)}/messages`, {
      headers: { "x-request-id": "client-req-42" },
      body: { messages: [{ role: "user", content: "my secret is swordfish" }] },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toBe("client-req-42");
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.requestId === "client-req-42");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      level: "info",
      msg: "request",
      tenant: "acme",
      session: sid,
      method: "POST",
      route: "/v1/sessions/:sessionId/messages",
      status: 201,
    });
    expect(typeof entries[0]?.durationMs).toBe("number");
    expect(lines.join("\n")).not.toContain("swordfish");

    // Background work the request scheduled (here a compression, offline: extractive) logs at debug.
    const debug: string[] = [];
    vi.spyOn(console, "debug").mockImplementation((line: unknown) => void debug.push(String(line)));
    const env = { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined, MEMORY_MAX_TOKENS: "300" };
    const long = "We talked about trains, timetables and the scenic route along the coast. ".repeat(8);
    const compressing = await call("POST", `${sessionPath(uniqueId("log-c"))}/messages`, {
      headers: { "x-request-id": "client-req-43" },
      body: { messages: [1, 2, 3, 4, 5, 6].map((i) => ({ id: `m${i}`, role: "user", content: `${i}. ${long}` })) },
      env,
    });
    expect(compressing.status, compressing.text).toBe(201);
    const mine = (all: string[]) => all.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.requestId === "client-req-43");
    expect(mine(lines)).toHaveLength(1);
    expect(mine(debug).map((e) => e.msg)).toContain("background compression");

    // An id that is not sane is replaced; an unauthenticated request is logged too.
    const bad = await call("GET", `${sessionPath(sid)}`, { key: null, headers: { "x-request-id": "bad id\twith tab" } });
    expect(bad.status).toBe(401);
    const generated = bad.headers.get("x-request-id");
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.some((l) => l.includes(`"requestId":"${generated}"`) && l.includes('"status":401'))).toBe(true);
  });
});
