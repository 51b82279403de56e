import { afterEach, describe, expect, it } from "vitest";
import { call, clearFault, clearLog, injectFault, uniqueId, upstreamLog, type CallResult } from "../support/helpers.ts";
import { FACTS_LABEL, addFact, contextFor, factsPath, listAll, mergeRecallCounts, postFact } from "../support/facts.ts";
import { append, postMessages, readSession } from "../support/sessions.ts";

const PROMPT = "You are a travel assistant.";

afterEach(async () => {
  await clearFault("vector");
});

/** A session of `userId` with a prompt, one message and one stored fact, made while Vector is up. */
async function setUp(): Promise<{ sid: string; uid: string; factId: string }> {
  const sid = uniqueId("degraded");
  const uid = uniqueId("traveller");
  await append(
    sid,
    [
      { id: "sys", role: "system", content: PROMPT },
      { id: "m1", role: "user", content: "planning a trip to Kyoto" },
    ],
    { userId: uid },
  );
  const { id } = await addFact(uid, { text: "the user prefers window seats", type: "preference" });
  return { sid, uid, factId: id };
}

function expect503(res: CallResult<unknown>): void {
  expect(res.status, res.text).toBe(503);
  expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(res.json).toMatchObject({ error: { code: "upstream_unavailable" } });
}

describe.each([
  ["error", { mode: "error" as const, durationMs: 30_000 }, {}],
  ["drop", { mode: "drop" as const, durationMs: 30_000 }, {}],
  ["hang", { mode: "hang" as const, durationMs: 30_000 }, { UPSTREAM_TIMEOUT_MS: "300" }],
])("Vector down (%s)", (_name, fault, env) => {
  it("still serves the context from Redis, flagged degraded", async () => {
    const { sid, uid } = await setUp();
    await injectFault("vector", fault);
    const started = Date.now();
    const ctx = await contextFor(sid, { query: "which seat does the user like", userId: uid }, { env });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(ctx.degraded).toEqual(["facts"]);
    expect(ctx.recalled).toEqual([]);
    expect(ctx.messages).toEqual([
      { role: "system", content: PROMPT },
      { role: "user", content: "planning a trip to Kyoto" },
    ]);
    expect(ctx.messages.some((m) => m.content.startsWith(FACTS_LABEL))).toBe(false);
  });

  it("queues a persisted fact until Vector is back; writes and reads that need Vector answer 503", async () => {
    const { sid, uid } = await setUp();
    await injectFault("vector", fault);
    // the message is stored and its fact queued in the same Redis step; delivery waits for Vector
    const persisted = await postMessages(sid, [{ id: "p1", role: "user", content: "我叫小明，喜欢蓝色", persist: true }], {
      userId: uid,
      env,
    });
    expect(persisted.status, persisted.text).toBe(201);
    const [queued] = (persisted.json as { facts: string[] }).facts;
    expect((await readSession(sid)).window.map((m) => m.id)).toEqual(["m1", "p1"]);

    await clearLog("redis");
    expect503(await postFact(uid, { text: "the user is vegetarian" }, { env }));
    // Nothing but the content index, which records a fact's ids before the Vector write (an entry
    // for a fact that was never written only makes a later write look it up in Vector).
    const contentIndex = `:u:${uid}:content`;
    expect((await upstreamLog("redis")).filter((r) => !r.body.includes(contentIndex))).toEqual([]);
    expect503(await call("GET", `${factsPath(uid)}?query=seat`, { env }));
    expect503(await call("GET", factsPath(uid), { env }));

    await clearFault("vector");
    await mergeRecallCounts(); // the cron delivers what is queued
    expect((await listAll(uid)).map((f) => f.id)).toContain(queued);

    // erasing a user needs Vector too: 503, and no session is touched
    await injectFault("vector", fault);
    expect503(await call("DELETE", `/v1/users/${uid}`, { env }));
    expect((await readSession(sid)).exists).toBe(true);
  });
});

describe("Vector back", () => {
  it("a write that does not need Vector goes through while it is down; everything works after", async () => {
    const { sid, uid, factId } = await setUp();
    await injectFault("vector", { mode: "error", durationMs: 30_000 });
    // no persist: Redis only; background extraction fails quietly and is retried by nobody
    const plain = await append(sid, [{ id: "m2", role: "user", content: "记住，我喜欢靠窗的座位" }], { userId: uid });
    expect(plain.added).toEqual([{ id: "m2", tokens: expect.any(Number), duplicate: false }]);
    expect((await readSession(sid)).window.map((m) => m.id)).toEqual(["m1", "m2"]);
    await clearFault("vector");

    const persisted = await append(sid, [{ id: "p1", role: "user", content: "我叫小明，喜欢蓝色", persist: true }], { userId: uid });
    expect(persisted.facts).toHaveLength(1);
    const added = await postFact(uid, { text: "the user is vegetarian" });
    expect(added.status, added.text).toBe(201);
    const ctx = await contextFor(sid, { query: "the user prefers window seats", userId: uid, k: 10 });
    expect(ctx.degraded).toBeUndefined();
    expect(ctx.recalled.map((r) => r.id)).toContain(factId);
    const ids = (await listAll(uid)).map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining([factId, added.json.id, ...persisted.facts]));
    expect((await readSession(sid)).window.map((m) => m.id)).toEqual(["m1", "m2", "p1"]);
  });
});
