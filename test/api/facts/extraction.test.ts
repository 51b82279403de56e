import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { addFact, contextFor, findFact, listAll, listLearned, mergeRecallCounts } from "../support/facts.ts";
import { append, readSession } from "../support/sessions.ts";

describe("automatic fact extraction (FACT_EXTRACTION default: heuristic)", () => {
  it("learns a cue-word statement in the background, with its source", async () => {
    const sid = uniqueId("extract");
    const uid = uniqueId("peanut");
    const res = await call<{ facts: string[] }>("POST", `/v1/sessions/${sid}/messages`, {
      body: { userId: uid, messages: [{ id: "m1", role: "user", content: "记住，我对花生过敏" }] },
      drain: false,
    });
    expect(res.status, res.text).toBe(201);
    // not persisted on the write path: extraction is background work
    expect(res.json.facts).toEqual([]);
    await res.drained;

    const facts = await listLearned(uid);
    expect(facts).toHaveLength(1);
    expect(facts[0]?.text).toContain("花生过敏");
    // beside it, the message as said, kept as an episode of the same source
    const episodes = (await listAll(uid)).filter((f) => f.type === "episode");
    expect(episodes).toMatchObject([{ text: "记住，我对花生过敏", sourceSession: sid, sourceMessage: "m1" }]);
    expect(facts[0]).toMatchObject({ sourceSession: sid, sourceMessage: "m1", accessCount: 0 });
    expect(facts[0]?.importance).toBeGreaterThanOrEqual(0.8);
    // and the message itself went to the window as usual, exactly once
    expect((await readSession(sid)).window.map((m) => m.content)).toEqual(["记住，我对花生过敏"]);
  });

  it("learns nothing from small talk", async () => {
    const sid = uniqueId("extract");
    const uid = uniqueId("weather");
    await append(sid, [{ role: "user", content: "今天天气不错" }], { userId: uid });
    expect(await listLearned(uid)).toEqual([]);
  });

  it("learns nothing from assistant messages or without a user", async () => {
    const uid = uniqueId("roles");
    await append(uniqueId("extract"), [{ role: "assistant", content: "记住，我对花生过敏" }], { userId: uid });
    expect(await listAll(uid)).toEqual([]);
    const anonymous = await append(uniqueId("extract"), [{ role: "user", content: "记住，我对花生过敏" }]);
    expect(anonymous.facts).toEqual([]);
  });

  it("does not learn the same statement twice", async () => {
    const uid = uniqueId("twice");
    await append(uniqueId("extract"), [{ role: "user", content: "remember that I always take the window seat" }], { userId: uid });
    await append(uniqueId("extract"), [{ role: "user", content: "Remember that I always take the window seat." }], { userId: uid });
    const facts = await listLearned(uid);
    expect(facts).toHaveLength(1);
    expect(facts[0]?.text.toLowerCase()).toContain("window seat");
  });

  it("learns nothing with FACT_EXTRACTION=off", async () => {
    const sid = uniqueId("extract-off");
    const uid = uniqueId("peanut-off");
    const env = { FACT_EXTRACTION: "off" };
    await append(sid, [{ role: "user", content: "记住，我对花生过敏" }], { userId: uid, env });
    expect(await listAll(uid)).toEqual([]);
    // persist still stores deliberately, extraction or not
    const persisted = await append(sid, [{ role: "user", content: "我叫小红", persist: true }], { userId: uid, env });
    expect(persisted.facts).toHaveLength(1);
    expect((await listAll(uid)).map((f) => f.text)).toEqual(["我叫小红"]);
  });
});

describe("recall access statistics", () => {
  it("counts each context recall (in Redis, merged into the fact by the cron) and leaves unrecalled facts alone", async () => {
    const uid = uniqueId("stats");
    const sid = uniqueId("stats-session");
    const dog = await addFact(uid, { text: "the user's dog is called Rex" });
    const other = await addFact(uid, { text: "the user collects vintage stamps" });
    const before = await findFact(uid, dog.id);
    expect(before?.accessCount).toBe(0);

    for (let i = 1; i <= 3; i++) {
      const ctx = await contextFor(sid, { query: "the user's dog is called Rex", userId: uid, k: 1 });
      expect(ctx.recalled).toEqual([
        { id: dog.id, text: "the user's dog is called Rex", type: "fact", score: expect.any(Number), similarity: expect.any(Number) },
      ]);
      await mergeRecallCounts();
      const now = await findFact(uid, dog.id);
      expect(now?.accessCount).toBe(i);
      expect(now?.lastAccessedAt).toBeGreaterThanOrEqual(before?.lastAccessedAt ?? Infinity);
    }
    expect((await findFact(uid, other.id))?.accessCount).toBe(0);
    // a context without a query recalls nothing and counts nothing
    const plain = await call<{ recalled: unknown[] }>("GET", `/v1/sessions/${sid}/context?userId=${uid}`);
    expect(plain.json.recalled).toEqual([]);
    await mergeRecallCounts();
    expect((await findFact(uid, dog.id))?.accessCount).toBe(3);
  });
});
