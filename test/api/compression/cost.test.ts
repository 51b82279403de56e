import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionKeys } from "../../../src/stores/keys.ts";
import { COMMIT_LUA } from "../../../src/stores/lua/commit.ts";
import { UNLOCK_LUA } from "../../../src/stores/lua/lock.ts";
import { READ_HEAD_LUA } from "../../../src/stores/lua/read.ts";
import { call, clearLog, upstreamLog, uniqueId } from "../support/helpers.ts";
import { append, readSession, rounds, sessionPath } from "../support/sessions.ts";
import { compress, resetLlm, setLlmMode } from "../support/llm.ts";

/** The SHA-1 hex the Redis client sends with EVALSHA. */
async function sha1(source: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(source));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The logged Redis REST requests, each as the commands it carried (command names lower-cased).
 * The client pipelines automatically: a `/pipeline` body is a list of commands, `/` holds one.
 */
async function redisRequests(): Promise<string[][][]> {
  const log = await upstreamLog("redis");
  const command = (raw: unknown): string[] => {
    expect(Array.isArray(raw), JSON.stringify(raw).slice(0, 200)).toBe(true);
    const parts = (raw as unknown[]).map(String);
    return [parts[0]?.toLowerCase() ?? "", ...parts.slice(1)];
  };
  return log.map((entry) => {
    const parsed: unknown = JSON.parse(entry.body);
    return entry.path === "/pipeline" || entry.path === "/multi-exec" ? (parsed as unknown[]).map(command) : [command(parsed)];
  });
}

beforeEach(async () => {
  await resetLlm();
  await setLlmMode({ mode: "summary" });
});

afterEach(async () => {
  await resetLlm();
});

describe("what a compression costs", () => {
  it("a forced compression is one read, the lock, one commit script and the unlock", async () => {
    // warm-up: the scripts are loaded once, so the measured run takes no NOSCRIPT fallback
    const warm = uniqueId("rt-warm");
    await append(warm, rounds("w", 10));
    expect(await compress(warm, { force: true })).toMatchObject({ compressed: true });

    const sid = uniqueId("rt");
    await append(sid, rounds("m", 10));
    await clearLog("redis");
    expect(await compress(sid, { force: true })).toMatchObject({ compressed: true, removed: 6 });
    const requests = await redisRequests();

    const [read, commit, unlock] = await Promise.all([sha1(READ_HEAD_LUA), sha1(COMMIT_LUA), sha1(UNLOCK_LUA)]);
    const lockKey = sessionKeys({ tenant: "acme", sessionId: sid }).lock;
    // four requests of one command each: read, lock, commit, unlock
    expect(requests.map((r) => r.map((c) => c.slice(0, 2)))).toEqual([
      [["evalsha", read]],
      [["set", lockKey]],
      [["evalsha", commit]],
      [["evalsha", unlock]],
    ]);
    const lock = requests[1]?.[0] ?? [];
    expect(lock.map((x) => x.toLowerCase())).toEqual(expect.arrayContaining(["nx", "px"]));
    const commands = requests.flat();
    // exactly one command carries the commit (no EVAL fallback, no second write)
    expect(commands.filter((c) => c.includes(commit))).toHaveLength(1);
    expect(commands.filter((c) => c[0] === "eval")).toEqual([]);
  });

  it("the append that crosses the threshold answers compressionDue without waiting for the LLM", async () => {
    const env = { MEMORY_MAX_TOKENS: "300" };
    const sid = uniqueId("rt-async");
    const first = rounds("m", 20);
    const firstRes = await append(sid, first, { env });
    expect(firstRes.compressionDue).toBe(false);
    expect(firstRes.stats.windowTokens).toBeLessThanOrEqual(300);

    await setLlmMode({ mode: "summary", delayMs: 2000 });
    const started = Date.now();
    const crossing = await call<{ compressionDue: boolean; stats: { windowTokens: number } }>("POST", `${sessionPath(sid)}/messages`, {
      body: { messages: rounds("n", 20) },
      env,
      drain: false,
    });
    const answeredAfter = Date.now() - started;
    expect(crossing.status, crossing.text).toBe(201);
    expect(crossing.json.compressionDue).toBe(true);
    expect(crossing.json.stats.windowTokens).toBeGreaterThan(300);
    expect(answeredAfter).toBeLessThan(1000);
    // the summary has not appeared yet: the compression is still waiting for the LLM
    const during = await readSession(sid, { env });
    expect(during.summary).toBeNull();
    expect(during.window).toHaveLength(40);

    await crossing.drained;
    const summarizedAfter = Date.now() - started;
    expect(summarizedAfter).toBeGreaterThanOrEqual(2000);
    const after = await readSession(sid, { env });
    expect(after.summary).toMatchObject({ version: 1, method: "llm", covered: 36 });
    expect(after.window).toHaveLength(4);
  });
});
