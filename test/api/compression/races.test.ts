import { Redis } from "@upstash/redis/cloudflare";
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionKeys } from "../../../src/stores/keys.ts";
import { call, uniqueId } from "../support/helpers.ts";
import { append, readSession, rounds, sessionPath, type MessageInput } from "../support/sessions.ts";
import {
  chatRequests,
  promptText,
  readHistory,
  resetLlm,
  setLlmMode,
  startCompress,
  waitForChatRequests,
  type CompressResponse,
} from "../support/llm.ts";

const KEEP = 4;
const bindings = env as unknown as { UPSTASH_REDIS_REST_URL: string; UPSTASH_REDIS_REST_TOKEN: string };
const ABORTED = ["locked", "prefix_changed", "version_changed"];

const ids = (messages: readonly { id?: string }[]): (string | undefined)[] => messages.map((m) => m.id);

/** Tracks whether a promise has settled, to prove work overlapped it. */
function track<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  const p = promise.finally(() => {
    done = true;
  });
  return { promise: p, settled: () => done };
}

async function seed(sid: string, count: number): Promise<MessageInput[]> {
  const messages = rounds("seed", count);
  await append(sid, messages);
  return messages;
}

beforeEach(async () => {
  await resetLlm();
});

afterEach(async () => {
  await resetLlm();
});

describe("appends racing a compression", () => {
  it("keeps every message appended while the summarizer runs, once each and in order per writer", async () => {
    const sid = uniqueId("race-append");
    const seeded = await seed(sid, 10);
    await setLlmMode({ mode: "summary", delayMs: 2000 });
    const running = track(startCompress(sid, { force: true }));
    await waitForChatRequests(1); // the snapshot is read and the summarizer is busy

    const writers = 5;
    const perWriter = 6;
    const written = await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const mine: string[] = [];
        for (let i = 0; i < perWriter; i++) {
          const id = `w${w}-${i}`;
          const res = await append(sid, [{ id, role: i % 2 === 0 ? "user" : "assistant", content: `writer ${w} says ${i}` }]);
          expect(res.added).toEqual([{ id, tokens: expect.any(Number), duplicate: false }]);
          mine.push(id);
        }
        return mine;
      }),
    );
    expect(running.settled()).toBe(false); // all 30 appends landed while the compression was running

    const outcome = (await running.promise).json;
    expect(outcome).toMatchObject({ compressed: true, reason: "forced", removed: seeded.length - KEEP, version: 1 });

    const state = await readSession(sid);
    const history = await readHistory(sid);
    const all = [...ids(history.archived), ...ids(state.window)];
    const appended = written.flat();
    expect(appended).toHaveLength(30);
    for (const id of appended) expect(all.filter((x) => x === id)).toHaveLength(1);
    for (const mine of written) expect(all.filter((x) => mine.includes(x ?? ""))).toEqual(mine);
    // the summarized prefix is archived exactly; the kept seed messages still open the window
    expect(ids(history.archived)).toEqual(ids(seeded.slice(0, seeded.length - KEEP)));
    expect(ids(state.window.slice(0, KEEP))).toEqual(ids(seeded.slice(-KEEP)));
    expect(state.window).toHaveLength(KEEP + 30);
    expect(state.summary).toMatchObject({ version: 1, covered: seeded.length - KEEP });
    // what was summarized is what was archived: no message written during the call
    const requests = await chatRequests();
    expect(requests).toHaveLength(1);
    const prompt = requests.map(promptText).join("\n");
    for (const m of seeded.slice(0, seeded.length - KEEP)) expect(prompt).toContain(m.content);
    for (const m of seeded.slice(-KEEP)) expect(prompt).not.toContain(m.content);
    expect(prompt).not.toMatch(/writer \d says/);
  });
});

describe("compressions racing each other", () => {
  it("two concurrent forced compressions commit at most once: one summary, version 1", async () => {
    const sid = uniqueId("race-two");
    const seeded = await seed(sid, 10);
    await setLlmMode({ mode: "summary", delayMs: 500 });
    const results = await Promise.all([startCompress(sid, { force: true }), startCompress(sid, { force: true })]);
    const outcomes: CompressResponse[] = results.map((r) => {
      expect(r.status, r.text).toBe(200);
      return r.json;
    });
    const won = outcomes.filter((o) => o.compressed);
    const lost = outcomes.filter((o) => !o.compressed);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(ABORTED).toContain(lost[0]?.reason);

    const state = await readSession(sid);
    const history = await readHistory(sid);
    expect(state.summary).toMatchObject({ version: 1, covered: seeded.length - KEEP });
    expect(ids(history.archived)).toEqual(ids(seeded.slice(0, seeded.length - KEEP)));
    expect(ids(state.window)).toEqual(ids(seeded.slice(-KEEP)));
    // the lock spared the loser its summarizer call
    if (lost[0]?.reason === "locked") expect(await chatRequests()).toHaveLength(1);
  });

  it("without the lock the compare-and-set alone still commits once (the lock is only an optimization)", async () => {
    const sid = uniqueId("race-nolock");
    const seeded = await seed(sid, 10);
    const redis = new Redis({ url: bindings.UPSTASH_REDIS_REST_URL, token: bindings.UPSTASH_REDIS_REST_TOKEN, enableTelemetry: false });
    const lockKey = sessionKeys({ tenant: "acme", sessionId: sid }).lock;

    await setLlmMode({ mode: "summary", delayMs: 800 });
    const first = startCompress(sid, { force: true });
    await waitForChatRequests(1);
    expect(await redis.get(lockKey)).not.toBeNull(); // the first compression holds the lock
    await redis.del(lockKey); // as if it had expired
    const second = startCompress(sid, { force: true });
    await waitForChatRequests(2); // both are summarizing the same prefix now

    const outcomes = [(await first).json, (await second).json];
    expect(outcomes.filter((o) => o.compressed)).toHaveLength(1);
    const loser = outcomes.find((o) => !o.compressed);
    expect(["prefix_changed", "version_changed"]).toContain(loser?.reason);

    const state = await readSession(sid);
    const history = await readHistory(sid);
    expect(state.summary).toMatchObject({ version: 1, covered: seeded.length - KEEP });
    expect(ids(history.archived)).toEqual(ids(seeded.slice(0, seeded.length - KEEP)));
    expect(ids(state.window)).toEqual(ids(seeded.slice(-KEEP)));
    expect(await redis.get(lockKey)).toBeNull(); // released by the second holder, not left behind
  });
});

describe("a reset during a compression", () => {
  it("makes the late commit change nothing: no summary appears and the new message is intact", async () => {
    const sid = uniqueId("race-reset");
    await append(sid, [{ id: "sys", role: "system", content: "You are terse." }]);
    await seed(sid, 10);
    await setLlmMode({ mode: "summary", delayMs: 1500 });
    const running = track(startCompress(sid, { force: true }));
    await waitForChatRequests(1);

    const reset = await call("DELETE", `${sessionPath(sid)}?keepSystem=false`);
    expect(reset.status, reset.text).toBe(200);
    const fresh: MessageInput = { id: "after-reset", role: "user", content: "Let us start over: I want to go to Lisbon." };
    await append(sid, [fresh]);
    expect(running.settled()).toBe(false);

    const outcome = (await running.promise).json;
    expect(outcome).toMatchObject({ compressed: false, reason: "reset" });
    const state = await readSession(sid);
    expect(state.summary).toBeNull();
    expect(state.system).toEqual([]);
    expect(state.window.map((m) => ({ id: m.id, role: m.role, content: m.content }))).toEqual([fresh]);
    expect(state.stats).toMatchObject({ messages: 1, windowMessages: 1, windowTokens: state.window[0]?.tokens });
    const history = await readHistory(sid);
    expect(history.summary).toBeNull();
    expect(history.archived).toEqual([]);
  });
});

describe("erasing the user during a compression", () => {
  it("the late commit finds the session missing and writes nothing back", async () => {
    const sid = uniqueId("race-erase");
    const userId = uniqueId("user");
    await append(sid, rounds("seed", 10), { userId });
    const redis = new Redis({ url: bindings.UPSTASH_REDIS_REST_URL, token: bindings.UPSTASH_REDIS_REST_TOKEN, enableTelemetry: false });
    await setLlmMode({ mode: "summary", delayMs: 1500 });
    const running = track(startCompress(sid, { force: true }));
    await waitForChatRequests(1);

    const erased = await call("DELETE", `/v1/users/${userId}`);
    expect(erased.status, erased.text).toBe(200);
    expect(erased.json).toMatchObject({ done: true, deleted: expect.any(Number), removed: { sessions: 1 } });
    expect(running.settled()).toBe(false);

    expect((await running.promise).json).toMatchObject({ compressed: false, reason: "missing" });
    expect((await readSession(sid)).exists).toBe(false);
    const keys = Object.values(sessionKeys({ tenant: "acme", sessionId: sid }));
    expect(await redis.exists(...keys)).toBe(0);
  });
});
