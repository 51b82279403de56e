import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearLog, uniqueId, upstreamLog } from "../support/helpers.ts";
import { chatRequests, chatTurn, postChat, resetLlm, setLlmMode, setUpstreamDelay, sleep, turnRequests, waitFor } from "../support/chat.ts";

/**
 * The critical path of a chat turn before the LLM call: one Redis round trip that appends the
 * user message and returns the context, with at most one Vector query running alongside it.
 */

/** Command names of a logged Redis body, `["CMD", ...]` or a pipeline (the log keeps 2 KB, so read with a pattern). */
const commands = (body: string): string[] => [...body.matchAll(/(?:^\[\[?|\],\[)"([A-Za-z]+)"/g)].map((m) => (m[1] ?? "").toUpperCase());

const LLM_DELAY_MS = 1500;

/** Starts a turn against a stalled LLM and returns the upstream logs once the LLM call is in flight (and >= 500 ms passed). */
async function logsWhileLlmStalls(sessionId: string, message: string, userId: string, env?: Record<string, string>) {
  await clearLog("redis");
  await clearLog("vector");
  await setLlmMode({ mode: "echo", delayMs: LLM_DELAY_MS });
  const started = Date.now();
  const pending = postChat(sessionId, { message, messageId: uniqueId("m"), userId }, { env });
  await waitFor(async () => turnRequests(await chatRequests(), message)[0], "the turn's LLM call", LLM_DELAY_MS - 200);
  await sleep(Math.max(0, 500 - (Date.now() - started)));
  const [redis, vector] = await Promise.all([upstreamLog("redis"), upstreamLog("vector")]);
  const inFlight = Date.now() - started < LLM_DELAY_MS;
  return { redis, vector, inFlight, pending };
}

describe("chat turn round trips before the LLM call", () => {
  beforeAll(async () => {
    await resetLlm();
    // Scripts loaded, tokenizer warm: no NOSCRIPT retry counts below.
    await chatTurn(uniqueId("warm"), { message: "warm up", userId: uniqueId("warm-user"), persist: true });
  });
  beforeEach(resetLlm);
  afterEach(async () => {
    await resetLlm();
    await setUpstreamDelay("redis", 0);
    await setUpstreamDelay("vector", 0);
  });

  it("costs exactly one Redis request and at most one Vector query", async () => {
    const sid = uniqueId("rt-chat");
    const user = uniqueId("rt-user");
    await chatTurn(sid, { message: "the meeting moved to Thursday", userId: user });
    const message = "what is on the agenda then";

    // Learning (every non-filler user message reaches the learner) runs in the background next to
    // the LLM call with its own requests; off here, so the logs hold the critical path only.
    const { redis, vector, inFlight, pending } = await logsWhileLlmStalls(sid, message, user, { FACT_EXTRACTION: "off" });
    expect(inFlight, "the logs must be read while the LLM call is still pending").toBe(true);
    expect(redis.map((r) => commands(r.body))).toEqual([["EVALSHA"]]);
    expect(redis[0]?.body).toContain(sid);
    expect(vector.length).toBeLessThanOrEqual(1);
    expect(vector.every((r) => r.path.startsWith("/query"))).toBe(true);

    const res = await pending;
    expect(res.status, res.text).toBe(200);
    // Only after the LLM answered: the reply's append.
    const after = await upstreamLog("redis");
    expect(after.length).toBeGreaterThan(1);
    expect(after.slice(1).some((r) => commands(r.body).includes("EVALSHA") && r.body.includes(`${res.json.reply.id}`))).toBe(true);
  });

  it("still one Redis request and one Vector query when a fact is recalled", async () => {
    // Fact extraction (a cue word is in the question) would add its own background query; here
    // nothing else runs next to the LLM call: the recall is counted when the reply is stored.
    const sid = uniqueId("rt-recall");
    const user = uniqueId("rt-user");
    // stated in an earlier session: a statement still in this window would not be repeated as a fact
    await chatTurn(uniqueId("rt-earlier"), { message: "我叫小明，喜欢蓝色", userId: user, persist: true });
    const message = "用户喜欢什么颜色?";

    const { redis, vector, inFlight, pending } = await logsWhileLlmStalls(sid, message, user, { FACT_EXTRACTION: "off" });
    expect(inFlight).toBe(true);
    expect(redis.map((r) => commands(r.body))).toEqual([["EVALSHA"]]);
    // The critical path holds one query; no Vector request records the access.
    expect(vector.filter((r) => r.path.startsWith("/query"))).toHaveLength(1);
    expect(vector.filter((r) => !r.path.startsWith("/query"))).toEqual([]);

    const res = await pending;
    expect(res.status, res.text).toBe(200);
    expect(res.json.memory.recalled.map((r) => r.text)).toContain("我叫小明，喜欢蓝色");
  });

  it("runs the Redis round trip and the Vector query in parallel, not one after the other", async () => {
    const sid = uniqueId("rt-par");
    const user = uniqueId("rt-user");
    await chatTurn(sid, { message: "the meeting moved to Thursday", userId: user });
    const upstreamDelay = 400;
    await setUpstreamDelay("redis", upstreamDelay);
    await setUpstreamDelay("vector", upstreamDelay);
    const message = "anything else for Thursday";

    const started = Date.now();
    const pending = postChat(sid, { message, userId: user });
    await waitFor(async () => turnRequests(await chatRequests(), message)[0], "the turn's LLM call");
    const beforeLlm = Date.now() - started;
    expect((await pending).status).toBe(200);

    const vector = await upstreamLog("vector");
    expect(vector.some((r) => r.path.startsWith("/query"))).toBe(true);
    expect(beforeLlm).toBeGreaterThanOrEqual(upstreamDelay);
    // Two sequential round trips would take at least 2 x 400 ms.
    expect(beforeLlm).toBeLessThan(2 * upstreamDelay - 100);
  });
});
