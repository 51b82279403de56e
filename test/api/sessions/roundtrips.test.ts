import { beforeAll, describe, expect, it } from "vitest";
import { clearLog, uniqueId, upstreamLog, type Upstream } from "../support/helpers.ts";
import { append, putSettings, readContext, rounds } from "../support/sessions.ts";

/**
 * Upstream requests that name `marker` (a session or user id). The emulators are shared by every
 * test file, so the log is narrowed to this test's own ids: every request about a session names
 * its keys, and every Vector request about a user names its namespace.
 */
async function requestsNaming(which: Upstream, marker: string) {
  const log = await upstreamLog(which);
  return log.filter((r) => r.path.includes(marker) || r.body.includes(marker));
}

/**
 * Command names in one logged request body: `["CMD", ...]`, or a pipeline `[["CMD", ...], ...]`
 * (the client pipelines automatically). Read with a pattern, as the log keeps only 2 KB of a body.
 */
const commands = (body: string): string[] => [...body.matchAll(/(?:^\[\[?|\],\[)"([A-Za-z]+)"/g)].map((m) => (m[1] ?? "").toUpperCase());

/** Background fact extraction is off, so nothing but the request itself talks to the upstreams. */
const NO_EXTRACTION = { FACT_EXTRACTION: "off" };

describe("upstream round trips", () => {
  beforeAll(async () => {
    // The first EVALSHA of a script on a fresh emulator may cost an extra NOSCRIPT round trip.
    const warm = uniqueId("warm");
    await putSettings(warm, { maxTokens: 1_000_000 });
    await append(warm, [{ role: "user", content: "warm up" }], { userId: uniqueId("warm-user"), env: NO_EXTRACTION });
    await readContext(warm);
  });

  it("an append costs exactly one Redis request and no Vector request", async () => {
    const sid = uniqueId("rt-append");
    const user = uniqueId("rt-user");
    await append(sid, [{ role: "user", content: "first" }], { userId: user, env: NO_EXTRACTION });
    await clearLog("redis");
    await clearLog("vector");

    const res = await append(
      sid,
      [
        { role: "user", content: "I live in Porto and like green tea." },
        { role: "assistant", content: "Noted." },
      ],
      { userId: user, env: NO_EXTRACTION },
    );
    expect(res.added).toHaveLength(2);

    const redis = await requestsNaming("redis", sid);
    expect(redis.flatMap((r) => commands(r.body))).toEqual(["EVALSHA"]);
    expect(await requestsNaming("vector", user)).toEqual([]);
    expect(await requestsNaming("vector", sid)).toEqual([]);
  });

  it("an append without a user costs one Redis request and no Vector request with the default configuration", async () => {
    const sid = uniqueId("rt-anon");
    await append(sid, [{ role: "user", content: "first" }]);
    await clearLog("redis");
    await clearLog("vector");

    await append(sid, [{ role: "user", content: "I live in Porto and like green tea." }]);
    expect((await requestsNaming("redis", sid)).flatMap((r) => commands(r.body))).toEqual(["EVALSHA"]);
    expect(await requestsNaming("vector", sid)).toEqual([]);
  });

  it("a context read without a query costs exactly one Redis request and no Vector request", async () => {
    const sid = uniqueId("rt-context");
    const user = uniqueId("rt-user");
    await append(sid, rounds("m", 4), { userId: user });
    await clearLog("redis");
    await clearLog("vector");

    const ctx = await readContext(sid, `userId=${user}`);
    expect(ctx.messages).toHaveLength(4);

    const redis = await requestsNaming("redis", sid);
    expect(redis.flatMap((r) => commands(r.body))).toEqual(["EVALSHA"]);
    expect(await requestsNaming("vector", user)).toEqual([]);
  });

  it("the context read stays one request with 30 or 300 messages in the session", async () => {
    const counts: number[] = [];
    for (const size of [30, 300]) {
      const sid = uniqueId(`rt-${size}`);
      await putSettings(sid, { maxTokens: 1_000_000 }); // no compression: the whole history stays in the window
      for (let from = 0; from < size; from += 100) await append(sid, rounds("h", Math.min(100, size - from), from));
      await clearLog("redis");

      const ctx = await readContext(sid);
      expect(ctx.stats.windowMessages).toBe(size);
      expect(ctx.messages).toHaveLength(size);
      const redis = await requestsNaming("redis", sid);
      counts.push(redis.length);
      expect(redis.flatMap((r) => commands(r.body))).toEqual(["EVALSHA"]);
    }
    expect(counts).toEqual([1, 1]);
  });
});
