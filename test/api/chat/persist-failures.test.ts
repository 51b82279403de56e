import { afterEach, describe, expect, it } from "vitest";
import { clearFault, injectFault, uniqueId } from "../support/helpers.ts";
import { chatRequests, chatTurn, postChat, readSession, resetLlm } from "../support/chat.ts";
import { listAll, mergeRecallCounts } from "../support/facts.ts";

// A persisted chat message is stored and its fact queued in the one Redis step before the LLM
// call; the fact reaches Vector in the background (or from the cron). Neither side failing may
// leave a half-done write: no fact without its message, no message whose fact is lost.

afterEach(async () => {
  await clearFault("redis");
  await clearFault("vector");
});

describe("persist: true in a chat turn", () => {
  it("Redis failing the append stores nothing, queues nothing and calls no LLM", async () => {
    const sid = uniqueId("persist-redis");
    const uid = uniqueId("persist-user");
    await resetLlm();
    await injectFault("redis", { mode: "error", count: 1 });
    const res = await postChat(sid, { message: "I am allergic to peanuts", userId: uid, persist: true });
    expect(res.status, res.text).toBe(503);
    await clearFault("redis");
    expect(await chatRequests()).toEqual([]);
    expect((await readSession(sid)).exists).toBe(false);
    await mergeRecallCounts(); // the cron finds no queued fact either
    expect(await listAll(uid)).toEqual([]);
  });

  it("Vector down: the turn still answers, the fact stays queued and arrives once Vector is back", async () => {
    const sid = uniqueId("persist-vector");
    const uid = uniqueId("persist-user");
    await injectFault("vector", { mode: "error", durationMs: 30_000 });
    const res = await chatTurn(sid, { message: "My daughter is called Ana", userId: uid, persist: true });
    expect(res.json.memory.degraded).toEqual(["facts"]);
    expect((await readSession(sid)).window.map((m) => m.role)).toEqual(["user", "assistant"]);
    await clearFault("vector");
    expect(await listAll(uid)).toEqual([]); // not delivered while Vector was down
    await mergeRecallCounts();
    expect((await listAll(uid)).map((f) => f.text)).toEqual(["My daughter is called Ana"]);
  });

  it("a restatement keeps the fact's creation time, id and a single copy", async () => {
    const sid = uniqueId("persist-restate");
    const uid = uniqueId("persist-user");
    await chatTurn(sid, { message: "I live in Porto", userId: uid, persist: true });
    const [first] = await listAll(uid);
    expect(first).toBeDefined();
    await new Promise((r) => setTimeout(r, 5));
    await chatTurn(sid, { message: "I live in Porto", userId: uid, persist: true });
    const after = await listAll(uid);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: first?.id, createdAt: first?.createdAt });
    expect(after[0]?.version).toBeGreaterThan(first?.version ?? 0);
  });
});
