import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { addFact, factsPath, findFact, listAll, mergeRecallCounts, postFact } from "../support/facts.ts";

// A fact's id is the content hash of its normalized text within (tenant, user): the same statement,
// however it arrives (facts API, persisted message, restated), is one fact.

describe("fact identity", () => {
  it("stores the same text once: a second write answers created false with the same id", async () => {
    const uid = uniqueId("dedup");
    const first = await addFact(uid, { text: "我喜欢爵士乐", type: "preference" });
    expect(first.created).toBe(true);
    expect(first.id).toMatch(/^f[0-9a-f]{24}$/);
    const again = await postFact(uid, { text: "我喜欢爵士乐", type: "preference" });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id: first.id, created: false });
    expect(again.json.fact.version).toBe(first.fact.version + 1);
    expect(again.json.fact.createdAt).toBe(first.fact.createdAt);
    expect(again.json.fact.updatedAt).toBeGreaterThanOrEqual(first.fact.updatedAt);
    expect((await listAll(uid)).map((f) => f.id)).toEqual([first.id]);
  });

  it("folds spacing, case, full-width forms and trailing punctuation into one fact", async () => {
    const uid = uniqueId("dedup-norm");
    const base = await addFact(uid, { text: "I prefer green tea in the morning" });
    for (const variant of [
      "  I prefer   green tea in the morning.",
      "i prefer green tea in the morning!!",
      "Ｉ prefer green tea in the morning？",
    ]) {
      const res = await postFact(uid, { text: variant });
      expect(res.status, variant).toBe(200);
      expect(res.json, variant).toMatchObject({ id: base.id, created: false });
    }
    const zh = await addFact(uid, { text: "我对花生过敏" });
    const zhAgain = await postFact(uid, { text: " 我对花生过敏。 " });
    expect(zhAgain.json).toMatchObject({ id: zh.id, created: false });
    const all = await listAll(uid);
    expect(all.map((f) => f.id).sort()).toEqual([base.id, zh.id].sort());
  });

  it("shares identity between persisted messages and the facts API", async () => {
    const uid = uniqueId("dedup-paths");
    const res = await call<{ facts: string[] }>("POST", `/v1/sessions/${uniqueId("s")}/messages`, {
      body: { userId: uid, messages: [{ role: "user", content: "我叫小明，喜欢蓝色", persist: true }] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.facts).toHaveLength(1);
    const again = await postFact(uid, { text: "我叫小明，喜欢蓝色。" });
    expect(again.json).toMatchObject({ id: res.json.facts[0], created: false });
    expect(await listAll(uid)).toHaveLength(1);
  });

  it("never holds the same text twice, even after a fact was changed to it", async () => {
    const uid = uniqueId("dedup-patched");
    const original = await addFact(uid, { text: "works at a bank" });
    const patched = await call("PATCH", `${factsPath(uid)}/${original.id}`, { body: { text: "works at a hospital" } });
    expect(patched.status, patched.text).toBe(200);
    await postFact(uid, { text: "works at a hospital" });
    const same = (await listAll(uid)).filter((f) => f.text === "works at a hospital");
    expect(same).toHaveLength(1);
  });

  it("gives different users different ids for the same text", async () => {
    const a = await addFact(uniqueId("u"), { text: "likes hiking" });
    const b = await addFact(uniqueId("u"), { text: "likes hiking" });
    expect(a.id).not.toBe(b.id);
  });
});

describe("fact identity: restating through persist", () => {
  it("a persisted restatement refreshes the fact without resetting its creation time or use count", async () => {
    const uid = uniqueId("restate");
    const sid = uniqueId("restate-s");
    const persist = (id: string) =>
      call<{ facts: string[] }>("POST", `/v1/sessions/${sid}/messages`, {
        body: { userId: uid, messages: [{ id, role: "user", content: "我对花生过敏", persist: true }] },
      });
    const first = await persist("m1");
    const id = first.json.facts[0] ?? "";
    // recalled from another session (this one's window still shows the statement, so it is not repeated there)
    const ctx = await call<{ recalled: { id: string }[] }>(
      "GET",
      `/v1/sessions/${sid}-other/context?query=${encodeURIComponent("花生过敏")}&userId=${uid}&k=1`,
    );
    expect(ctx.json.recalled.map((r) => r.id)).toEqual([id]);
    await mergeRecallCounts();
    const used = await findFact(uid, id);
    expect(used?.accessCount).toBe(1);

    const second = await persist("m2");
    expect(second.json.facts).toEqual([id]);
    const after = await findFact(uid, id);
    expect(after?.createdAt).toBe(used?.createdAt);
    expect(after?.accessCount).toBe(1);
  });
});
