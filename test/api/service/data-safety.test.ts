import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { addFact, factsPath, listAll, mergeRecallCounts, recall, runCron } from "../support/facts.ts";
import { compress, resetLlm, setLlmMode } from "../support/llm.ts";
import { testRedis } from "../support/redis.ts";
import { append, expectJsonError, postMessages, readSession, sessionPath } from "../support/sessions.ts";

/**
 * One scenario per data-safety defect, over HTTP: each fixed where it started (the store, the use
 * case, the edge), each proven here as a client would see it.
 */

beforeAll(async () => {
  await resetLlm();
});

afterEach(async () => {
  await resetLlm();
});

/** Makes a session's keys vanish as its idle TTL would (its index entries stay). */
async function expireSession(sessionId: string): Promise<void> {
  const parts = ["sys", "win", "sum", "meta", "arc", "ids", "notes", "pad", "lock"];
  await testRedis.del(...parts.map((p) => `am:acme:s:${sessionId}:${p}`));
}

/** Queued facts of a user that no delivery has confirmed yet. */
const queued = (userId: string): Promise<number> => testRedis.hlen(`am:acme:u:${userId}:pending`);

describe("a 409 stores nothing", () => {
  it("an append naming another user's session stores no message and no fact of the intruder", async () => {
    const sid = uniqueId("owned");
    const owner = uniqueId("owner");
    const intruder = uniqueId("intruder");
    await append(sid, [{ id: "m1", role: "user", content: "hello" }], { userId: owner });
    const res = await postMessages(sid, [{ id: "m2", role: "user", content: "我叫小明，喜欢蓝色", persist: true }], { userId: intruder });
    expectJsonError(res, 409);
    expect((await readSession(sid)).window.map((m) => m.id)).toEqual(["m1"]);
    expect(await queued(intruder)).toBe(0);
    expect(await listAll(intruder)).toEqual([]);
  });

  it("a chat turn naming another user's session stores nothing either, and calls no LLM", async () => {
    const sid = uniqueId("owned-chat");
    const owner = uniqueId("owner");
    const intruder = uniqueId("intruder");
    await append(sid, [{ id: "m1", role: "user", content: "hello" }], { userId: owner });
    const res = await call("POST", `${sessionPath(sid)}/chat`, {
      body: { message: "I am allergic to peanuts", userId: intruder, persist: true },
    });
    expectJsonError(res, 409);
    expect((await readSession(sid)).window.map((m) => m.id)).toEqual(["m1"]);
    expect(await queued(intruder)).toBe(0);
    expect(await listAll(intruder)).toEqual([]);
  });
});

describe("export and erase touch only what the user owns", () => {
  it("a session id reused by another user after it expired is neither exported nor erased for the first", async () => {
    const x = uniqueId("x");
    const y = uniqueId("y");
    const s2 = uniqueId("s2");
    const kept = uniqueId("x-kept");
    await append(s2, [{ id: "a", role: "user", content: "x speaking" }], { userId: x });
    await append(kept, [{ id: "a", role: "user", content: "x again" }], { userId: x });
    await expireSession(s2);
    await append(s2, [{ id: "b", role: "user", content: "y speaking" }], { userId: y });

    const exported = await call<{ sessions: { sessionId: string; window: { content: string }[] }[] }>("GET", `/v1/users/${x}/export`);
    expect(exported.status, exported.text).toBe(200);
    expect(exported.json.sessions.map((s) => s.sessionId)).toEqual([kept]);
    expect(JSON.stringify(exported.json)).not.toContain("y speaking");

    const erased = await call<{ done: boolean; removed: { sessions: number } }>("DELETE", `/v1/users/${x}`);
    expect(erased.status, erased.text).toBe(200);
    expect(erased.json).toMatchObject({ done: true, removed: { sessions: 1 } });
    expect((await readSession(kept)).exists).toBe(false);
    expect((await readSession(s2)).window.map((m) => m.content)).toEqual(["y speaking"]);
  });

  it("the cron drops an expired session from its owner's index too", async () => {
    const user = uniqueId("swept");
    const sid = uniqueId("swept-s");
    await append(sid, [{ id: "a", role: "user", content: "soon gone" }], { userId: user });
    expect(await testRedis.zscore(`am:acme:u:${user}:sessions`, sid)).not.toBeNull();
    await expireSession(sid);
    await testRedis.del("am:_system:cleanup");
    for (let run = 0; run < 200; run++) {
      const report = await runCron(Date.now(), { CLEANUP_BATCH: "10" });
      if (report.sessionEntriesRemoved === 0 && (await testRedis.zscore("am:acme:sessions", sid)) === null) break;
    }
    expect(await testRedis.zscore("am:acme:sessions", sid)).toBeNull();
    expect(await testRedis.zscore(`am:acme:u:${user}:sessions`, sid)).toBeNull();
    expect(await testRedis.hget("am:acme:owners", sid)).toBeNull();
  });
});

describe("deep metadata", () => {
  const deep = (levels: number): Record<string, unknown> => {
    let value: Record<string, unknown> = {};
    for (let i = 0; i < levels; i++) value = { d: value };
    return value;
  };

  it("is refused at the edge with a 400 that says why, and nothing is stored", async () => {
    const sid = uniqueId("deep");
    const res = await call("POST", `${sessionPath(sid)}/messages`, {
      body: { messages: [{ role: "user", content: "hi", metadata: deep(1500) }] },
    });
    expect(expectJsonError(res, 400).error.message).toMatch(/nest at most 8 levels/);
    expect((await readSession(sid)).exists).toBe(false);
    const fact = await call("POST", factsPath(uniqueId("deep-user")), { body: { text: "a fact", metadata: deep(150) } });
    expect(expectJsonError(fact, 400).error.message).toMatch(/nest at most 8 levels/);
    expect(fact.headers.get("retry-after")).toBeNull();
  });

  it("a stored message the scripts cannot decode never blocks compression or a pinned prompt", async () => {
    const sid = uniqueId("deep-stored");
    await append(sid, [
      { id: "sys", role: "system", content: "be brief" },
      ...Array.from({ length: 6 }, (_, i) => ({ id: `m${i}`, role: "user" as const, content: `message ${i}` })),
    ]);
    // written past the edge, as an older version of the service could have stored it
    const key = `am:acme:s:${sid}:win`;
    const raw: unknown = await testRedis.lindex(key, 0);
    const first = (typeof raw === "string" ? JSON.parse(raw) : raw) as Record<string, unknown>;
    await testRedis.lset(key, 0, JSON.stringify({ ...first, metadata: deep(1500) }));
    const result = await compress(sid, { force: true });
    expect(result).toMatchObject({ compressed: true });
    const again = await call("POST", `${sessionPath(sid)}/messages`, {
      body: { messages: [{ id: "sys2", role: "system", content: "be kind" }] },
    });
    expect(again.status, again.text).toBe(201);
  });
});

describe("bad input is the client's error, not an outage", () => {
  it("an invalid fact cursor answers 400 without Retry-After", async () => {
    const user = uniqueId("cursor");
    await addFact(user, { text: "the user has a cat" });
    const res = await call("GET", `${factsPath(user)}?cursor=abc`);
    expectJsonError(res, 400);
    expect(res.headers.get("retry-after")).toBeNull();
  });
});

describe("an erase is final", () => {
  it("learning already scheduled when the user is erased cannot bring a fact back", async () => {
    const user = uniqueId("final");
    const sid = uniqueId("final-s");
    // learning runs in the background after this append; the erase lands while it is in flight
    const learning = await call("POST", `${sessionPath(sid)}/messages`, {
      body: { userId: user, messages: [{ id: "m1", role: "user", content: "记住，我对花生过敏" }] },
      drain: false,
    });
    expect(learning.status, learning.text).toBe(201);
    const erased = await call("DELETE", `/v1/users/${user}`);
    expect(erased.status, erased.text).toBe(200);
    await learning.drained;
    await mergeRecallCounts();
    expect(await listAll(user)).toEqual([]);
    expect(await queued(user)).toBe(0);
  });

  it("a fact persisted just before the erase is gone after it, and an explicit write afterwards is allowed", async () => {
    const user = uniqueId("final-persist");
    const sid = uniqueId("final-persist-s");
    const persisted = await call("POST", `${sessionPath(sid)}/messages`, {
      body: { userId: user, messages: [{ id: "m1", role: "user", content: "I live in Lisbon", persist: true }] },
      drain: false,
    });
    expect(persisted.status, persisted.text).toBe(201);
    expect((await call("DELETE", `/v1/users/${user}`)).status).toBe(200);
    await persisted.drained;
    await mergeRecallCounts();
    expect(await listAll(user)).toEqual([]);

    const later = await addFact(user, { text: "I moved to Porto" });
    expect((await listAll(user)).map((f) => f.id)).toEqual([later.id]);
  });
});

describe("an erase gives a receipt and leaves nothing", () => {
  it("answers the receipt once everything is gone, records it in the audit log, and nothing finds the user afterwards", async () => {
    const user = uniqueId("receipt");
    const [s1, s2] = [uniqueId("receipt-s"), uniqueId("receipt-s")];
    await append(
      s1,
      [
        { id: "a", role: "user", content: "I like green tea" },
        { id: "b", role: "assistant", content: "Noted." },
      ],
      { userId: user },
    );
    await append(s2, [{ id: "c", role: "user", content: "plan a trip to Porto" }], { userId: user });
    expect((await call("PUT", `${sessionPath(s2)}/notes/plan`, { body: { value: "Porto in May" } })).status).toBe(200);
    await addFact(user, { text: "Allergic to peanuts" });
    // "I like green tea" was learned too.
    const facts = (await listAll(user)).length;
    expect(facts).toBeGreaterThanOrEqual(1);
    const since = Date.now() - 1;

    const erased = await call<{ receiptId: string; erasedAt: number; done: boolean; removed: Record<string, number> }>(
      "DELETE",
      `/v1/users/${user}`,
    );
    expect(erased.status, erased.text).toBe(200);
    expect(erased.json).toMatchObject({ userId: user, done: true, removed: { sessions: 2, messages: 3, facts, notes: 1, archives: 0 } });
    expect(erased.json.receiptId).toMatch(/^er_/);
    expect(erased.json.erasedAt).toBeGreaterThanOrEqual(since);

    const audit = await call<{ entries: { action: string; target: { userId?: string }; details?: Record<string, unknown> }[] }>(
      "GET",
      `/v1/audit?since=${since}`,
    );
    const receipt = audit.json.entries.find((e) => e.action === "user.erase" && e.target.userId === user);
    expect(receipt?.details).toMatchObject({ receiptId: erased.json.receiptId, sessions: 2, messages: 3, facts, notes: 1, archives: 0 });

    const exported = await call<{ sessions: unknown[]; facts: unknown[] }>("GET", `/v1/users/${user}/export`);
    expect(exported.json).toMatchObject({ sessions: [], facts: [] });
    expect(await listAll(user)).toEqual([]);
    expect(await recall(user, "peanuts")).toEqual([]);
    const listed = await call<{ sessions: unknown[] }>("GET", `/v1/users/${user}/sessions`);
    expect(listed.json.sessions).toEqual([]);
    for (const sid of [s1, s2]) {
      expect((await readSession(sid)).exists).toBe(false);
      expect((await call<{ notes: Record<string, string> }>("GET", `${sessionPath(sid)}/notes`)).json.notes).toEqual({});
    }
  });

  it("a chat turn in flight when the user is erased does not bring the session back", async () => {
    const user = uniqueId("inflight");
    const sid = uniqueId("inflight-s");
    await append(sid, [{ id: "a", role: "user", content: "hello" }], { userId: user });
    await setLlmMode({ mode: "echo", delayMs: 800 });
    const turn = call("POST", `${sessionPath(sid)}/chat`, {
      body: { message: "remember that I live in Lisbon", userId: user, persist: true },
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await call("DELETE", `/v1/users/${user}`)).status).toBe(200);
    const answered = await turn;
    // The model answered, but the erase won: the reply is not stored, and the client is told.
    expect(answered.status, answered.text).toBe(409);
    await mergeRecallCounts();
    expect((await readSession(sid)).window).toEqual([]);
    const listed = await call<{ sessions: unknown[] }>("GET", `/v1/users/${user}/sessions`);
    expect(listed.json.sessions).toEqual([]);
    expect(await listAll(user)).toEqual([]);
  });
});

describe("no lost updates", () => {
  it("two concurrent settings changes of different fields both survive", async () => {
    const sid = uniqueId("settings");
    await append(sid, [{ role: "user", content: "hi" }]);
    const [a, b] = await Promise.all([
      call("PUT", sessionPath(sid), { body: { keep: 6 } }),
      call("PUT", sessionPath(sid), { body: { maxTokens: 3000 } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await readSession(sid)).settings.overrides).toEqual({ keep: 6, maxTokens: 3000 });
  });

  it("concurrent recalls of a fact all count", async () => {
    const user = uniqueId("counts");
    const fact = await addFact(user, { text: "the user's dog is called Rex" });
    const reads = Array.from({ length: 8 }, () =>
      call("GET", `${sessionPath(uniqueId("c"))}/context?query=${encodeURIComponent("the user's dog is called Rex")}&userId=${user}&k=1`),
    );
    for (const res of await Promise.all(reads)) expect(res.status).toBe(200);
    await mergeRecallCounts();
    const [stored] = (await listAll(user)).filter((f) => f.id === fact.id);
    expect(stored?.accessCount).toBe(8);
  });
});

describe("a summarizer that keeps failing", () => {
  it("is replaced by the extractive one after 3 failures, so the window stays bounded", async () => {
    const sid = uniqueId("failing-llm");
    await append(
      sid,
      Array.from({ length: 8 }, (_, i) => ({
        id: `m${i}`,
        role: i % 2 ? ("assistant" as const) : ("user" as const),
        content: `turn ${i}`,
      })),
    );
    await setLlmMode({ mode: "error", status: 500 });
    for (let i = 0; i < 3; i++)
      expect(await compress(sid, { force: true })).toMatchObject({ compressed: false, reason: "summarizer_failed" });
    const fallback = await compress(sid, { force: true });
    expect(fallback).toMatchObject({ compressed: true, method: "extractive" });
    const session = await readSession(sid);
    expect(session.summary).toMatchObject({ method: "extractive" });
    expect(session.window.length).toBeLessThanOrEqual(4);
  });
});
