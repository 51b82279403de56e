import { describe, expect, it } from "vitest";
import { uniqueId } from "../support/helpers.ts";
import { append, postMessages, readSession, sum, type MessageInput } from "../support/sessions.ts";

const message = (id: string): MessageInput => ({ id, role: "user", content: `parallel message ${id}` });

/** Every id exactly once, and the window token count equal to the stored messages' tokens. */
async function expectStoredOnce(sessionId: string, ids: readonly string[]) {
  const state = await readSession(sessionId);
  const stored = state.window.map((m) => m.id);
  expect(stored).toHaveLength(ids.length);
  expect(new Set(stored).size).toBe(stored.length);
  expect([...stored].sort()).toEqual([...ids].sort());
  expect(state.stats.windowMessages).toBe(ids.length);
  expect(state.stats.windowTokens).toBe(sum(state.window.map((m) => m.tokens)));
  return state;
}

describe("concurrent and repeated appends", () => {
  it("50 parallel appends to one session store 50 messages, each exactly once", async () => {
    const sid = uniqueId("parallel");
    const ids = Array.from({ length: 50 }, (_, i) => `p${i}`);
    const results = await Promise.all(ids.map((id) => postMessages(sid, [message(id)])));
    for (const [i, res] of results.entries()) {
      expect(res.status, res.text).toBe(201);
      expect(res.json.added).toEqual([{ id: ids[i], tokens: expect.any(Number), duplicate: false }]);
    }
    const state = await expectStoredOnce(sid, ids);
    for (const m of state.window) expect(m.content).toBe(`parallel message ${m.id}`);

    // the same 50 requests again, in parallel: all duplicates, nothing stored twice
    const retries = await Promise.all(ids.map((id) => postMessages(sid, [message(id)])));
    for (const res of retries) {
      expect(res.status, res.text).toBe(201);
      expect(res.json.added).toHaveLength(1);
      expect(res.json.added[0]?.duplicate).toBe(true);
    }
    const again = await expectStoredOnce(sid, ids);
    expect(again.window).toEqual(state.window);
    expect(again.stats).toEqual(state.stats);
  });

  it("a retried request reports duplicates and stores nothing new", async () => {
    const sid = uniqueId("retry");
    const batch = [message("a"), { id: "b", role: "assistant", content: "reply b" } as const];
    const first = await append(sid, batch);
    expect(first.added.map((a) => a.duplicate)).toEqual([false, false]);
    const retry = await append(sid, batch);
    expect(retry.added).toEqual(first.added.map((a) => ({ ...a, duplicate: true })));
    expect(retry.stats).toEqual(first.stats);
    await expectStoredOnce(sid, ["a", "b"]);
  });

  it("the same message id sent by 10 requests at once is stored once and reported new once", async () => {
    const sid = uniqueId("race");
    const results = await Promise.all(Array.from({ length: 10 }, () => postMessages(sid, [message("same")])));
    for (const res of results) expect(res.status, res.text).toBe(201);
    expect(results.filter((r) => r.json.added[0]?.duplicate === false)).toHaveLength(1);
    await expectStoredOnce(sid, ["same"]);
  });

  it("a batch mixing new and stored ids stores only the new ones, in order", async () => {
    const sid = uniqueId("mixed");
    await append(sid, [message("m1"), message("m2")]);
    const res = await append(sid, [message("m1"), message("n1"), message("m2"), message("n2")]);
    expect(res.added.map((a) => [a.id, a.duplicate])).toEqual([
      ["m1", true],
      ["n1", false],
      ["m2", true],
      ["n2", false],
    ]);
    const state = await expectStoredOnce(sid, ["m1", "m2", "n1", "n2"]);
    expect(state.window.map((m) => m.id)).toEqual(["m1", "m2", "n1", "n2"]);
    expect(res.stats.windowMessages).toBe(4);
  });

  it("a stored id sent with different content keeps the original", async () => {
    const sid = uniqueId("rewrite");
    await append(sid, [{ id: "x", role: "user", content: "original" }]);
    const res = await append(sid, [{ id: "x", role: "user", content: "changed" }]);
    expect(res.added[0]?.duplicate).toBe(true);
    const state = await readSession(sid);
    expect(state.window.map((m) => m.content)).toEqual(["original"]);
  });
});
