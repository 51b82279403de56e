import { beforeAll, describe, expect, it } from "vitest";
import { KEY_B, call, uniqueId } from "../support/helpers.ts";
import { addFact, exportUser, listAll, recall } from "../support/facts.ts";
import { compress, resetLlm } from "../support/llm.ts";
import { testRedis } from "../support/redis.ts";
import { append, readSession } from "../support/sessions.ts";

beforeAll(async () => {
  await resetLlm();
});

/** Every key under `pattern` (SCAN, so the real Redis is never blocked). */
async function keysMatching(pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await testRedis.scan(cursor, { match: pattern, count: 1000 });
    found.push(...keys);
    cursor = String(next);
  } while (cursor !== "0");
  return found;
}

/** A session of `userId` with a window, a summary, archived originals, notes and a scratchpad. */
async function fullSession(userId: string, label: string, options: { key?: string } = {}): Promise<string> {
  const sid = uniqueId(label);
  await append(sid, [{ id: "sys", role: "system", content: "You are a concise assistant." }], { userId, ...options });
  for (let i = 0; i < 6; i++) {
    await append(sid, [{ id: `m${i}`, role: i % 2 === 0 ? "user" : "assistant", content: `${label} message ${i}` }], {
      userId,
      ...options,
    });
  }
  const compressed = await call<{ compressed: boolean }>("POST", `/v1/sessions/${sid}/compress?force=true`, options);
  expect(compressed.json.compressed, compressed.text).toBe(true);
  await append(sid, [{ id: "after", role: "user", content: "after the summary", persist: true }], { userId, ...options });
  const note = await call("PUT", `/v1/sessions/${sid}/notes/goal`, { body: { value: "book a flight" }, ...options });
  expect(note.status, note.text).toBe(200);
  const pad = await call("POST", `/v1/sessions/${sid}/scratchpad`, { body: { entry: "step 1: compare prices" }, ...options });
  expect(pad.status, pad.text).toBe(200);
  return sid;
}

describe("export and erase a user", () => {
  it("exports everything, then erases it from Redis and Vector and leaves others alone", async () => {
    const uid = uniqueId("erase");
    const s1 = await fullSession(uid, "erase-s1");
    const s2 = await fullSession(uid, "erase-s2");
    const fact = await addFact(uid, { text: "the user's passport expires in May", type: "fact" });

    const other = uniqueId("bystander");
    const otherSession = await fullSession(other, "bystander-s");
    const otherFact = await addFact(other, { text: "the bystander likes tea" });
    const sameIdOtherTenant = await addFact(uid, { text: "globex knows this user too" }, { key: KEY_B });

    // export before: window, summary, archive, notes, scratchpad and facts
    const before = await exportUser(uid);
    expect(before.sessions.map((s) => s.sessionId).sort()).toEqual([s1, s2].sort());
    for (const s of before.sessions) {
      expect(s.system.map((m) => m.content)).toEqual(["You are a concise assistant."]);
      expect(s.window.map((m) => m.id)).toContain("after");
      expect(s.summary?.version).toBe(1);
      expect(s.archived.length).toBeGreaterThan(0);
      expect(s.notes).toEqual({ goal: "book a flight" });
      expect(s.scratchpad).toEqual(["step 1: compare prices"]);
    }
    expect(before.facts.map((f) => f.id)).toContain(fact.id);
    expect(before.facts.map((f) => f.text)).toContain("after the summary");

    const erased = await call<{ done: boolean; deleted: number; removed: Record<string, number> }>("DELETE", `/v1/users/${uid}`);
    expect(erased.status, erased.text).toBe(200);
    expect(erased.json).toMatchObject({ userId: uid, done: true, removed: { sessions: 2, facts: before.facts.length } });
    // One delete shape: `deleted` counts everything removed, `removed` breaks it down.
    expect(erased.json.deleted).toBe(Object.values(erased.json.removed).reduce((a, b) => a + b, 0));

    // nothing of the user is left in Redis
    for (const sid of [s1, s2]) {
      expect(await keysMatching(`am:acme:s:${sid}:*`), sid).toEqual([]);
      expect(await testRedis.zscore("am:acme:sessions", sid), sid).toBeNull();
      expect((await readSession(sid)).exists).toBe(false);
    }
    expect(await testRedis.exists(`am:acme:u:${uid}:sessions`)).toBe(0);
    // nor in Vector
    expect(await listAll(uid)).toEqual([]);
    expect(await recall(uid, "passport expires", { minScore: "0" })).toEqual([]);
    const after = await exportUser(uid);
    expect(after.sessions).toEqual([]);
    expect(after.facts).toEqual([]);

    // other users and other tenants are untouched
    expect((await keysMatching(`am:acme:s:${otherSession}:*`)).length).toBeGreaterThan(0);
    expect((await listAll(other)).map((f) => f.id)).toContain(otherFact.id);
    expect((await exportUser(other)).sessions.map((s) => s.sessionId)).toEqual([otherSession]);
    expect((await listAll(uid, { key: KEY_B })).map((f) => f.id)).toEqual([sameIdOtherTenant.id]);

    // erasing again finds nothing: it answers the finished erase's receipt (a retry whose answer was lost)
    const again = await call("DELETE", `/v1/users/${uid}`);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({
      done: true,
      deleted: 0,
      receiptId: (erased.json as { receiptId?: string }).receiptId,
      removed: erased.json.removed,
    });
  });

  it("exports an unknown user as empty", async () => {
    const res = await exportUser(uniqueId("nobody"));
    expect(res.sessions).toEqual([]);
    expect(res.facts).toEqual([]);
  });

  it("exports the summary and every archived original of a compression", async () => {
    const uid = uniqueId("erase-summary");
    const sid = uniqueId("erase-summary-s");
    await append(
      sid,
      [
        { role: "user", content: "one" },
        { role: "assistant", content: "two" },
        { role: "user", content: "three" },
        { role: "assistant", content: "four" },
        { role: "user", content: "five" },
      ],
      { userId: uid },
    );
    const result = await compress(sid, { force: true });
    expect(result.compressed).toBe(true);
    const exported = await exportUser(uid);
    expect(exported.sessions[0]?.summary).not.toBeNull();
    expect(exported.sessions[0]?.archived.length).toBe(result.removed);
  });
});
