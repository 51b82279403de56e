import { describe, expect, it } from "vitest";
import { KEY_B, call, uniqueId } from "../support/helpers.ts";
import { addFact, contextFor, factsPath, findFact, getFact, listAll, listPage, recall, type FactView } from "../support/facts.ts";

describe("facts API: list, get, patch, delete", () => {
  it("lists every fact exactly once with cursor paging", async () => {
    const uid = uniqueId("paging");
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await addFact(uid, { text: `fact number ${i} about the user` })).id);
    const seen: string[] = [];
    let cursor: string | null = "";
    let pages = 0;
    do {
      const page = await listPage(uid, cursor === "" ? { limit: "3" } : { limit: "3", cursor });
      expect(page.facts.length).toBeLessThanOrEqual(3);
      seen.push(...page.facts.map((f) => f.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(cursor).toBeNull();
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(seen).toHaveLength(7);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it("gets one fact with every field", async () => {
    const uid = uniqueId("get");
    const added = await addFact(uid, { text: "lives in Hangzhou", type: "fact", importance: 0.8, metadata: { origin: "form" } });
    const fact = await findFact(uid, added.id);
    expect(fact).toMatchObject({
      id: added.id,
      text: "lives in Hangzhou",
      type: "fact",
      importance: 0.8,
      accessCount: 0,
      version: 1,
      metadata: { origin: "form" },
    });
    expect(fact?.createdAt).toBeGreaterThan(0);
  });

  it("patches text and importance; the fact keeps its id, the old text goes to history", async () => {
    const uid = uniqueId("patch");
    const added = await addFact(uid, { text: "works at a bank", importance: 0.6 });
    const res = await call<FactView>("PATCH", `${factsPath(uid)}/${added.id}`, { body: { text: "works at a hospital" } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: added.id, text: "works at a hospital", importance: 0.6, version: 2 });
    expect(res.json.history?.map((h) => h.text)).toEqual(["works at a bank"]);
    // The id the client holds keeps working: GET, PATCH, recall, DELETE.
    expect(await findFact(uid, added.id)).toMatchObject({ text: "works at a hospital" });
    // same text, same fact: adding the new text again names the patched fact
    const again = await addFact(uid, { text: "works at a hospital" });
    expect(again).toMatchObject({ id: added.id, created: false });

    const lower = await call<FactView>("PATCH", `${factsPath(uid)}/${added.id}`, { body: { importance: 0.2 } });
    expect(lower.status, lower.text).toBe(200);
    const stored = await findFact(uid, added.id);
    expect(stored).toMatchObject({ id: added.id, text: "works at a hospital", importance: 0.2 });
    expect(stored?.history?.map((h) => h.text)).toEqual(["works at a bank"]);
    const hits = await recall(uid, "works at a hospital", { k: "1" });
    expect(hits.map((h) => [h.id, h.text])).toEqual([[added.id, "works at a hospital"]]);

    // The old text, said again, is a new fact of its own (the patched one moved on).
    const old = await addFact(uid, { text: "works at a bank" });
    expect(old.created).toBe(true);
    expect(old.id).not.toBe(added.id);
    expect((await listAll(uid)).map((f) => f.text).sort()).toEqual(["works at a bank", "works at a hospital"]);
    // A text another fact holds cannot be patched in: 409, nothing changes.
    const clash = await call("PATCH", `${factsPath(uid)}/${old.id}`, { body: { text: "Works at a hospital." } });
    expect(clash.status, clash.text).toBe(409);
    expect(await findFact(uid, old.id)).toMatchObject({ text: "works at a bank", version: 1 });

    expect((await call("DELETE", `${factsPath(uid)}/${added.id}`)).status).toBe(200);
    expect((await getFact(uid, added.id)).status).toBe(404);
  });

  it("answers 404 for a patch or get of an unknown fact", async () => {
    const uid = uniqueId("patch404");
    await addFact(uid, { text: "exists" });
    expect((await getFact(uid, "f000000000000000000000000")).status).toBe(404);
    const res = await call("PATCH", `${factsPath(uid)}/f000000000000000000000000`, { body: { importance: 0.3 } });
    expect(res.status).toBe(404);
  });

  it("deletes a fact: 404 after, and a second delete is 404", async () => {
    const uid = uniqueId("delete");
    const keep = await addFact(uid, { text: "keep me" });
    const drop = await addFact(uid, { text: "drop me" });
    const res = await call("DELETE", `${factsPath(uid)}/${drop.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ userId: uid, id: drop.id, deleted: 1 });
    expect((await getFact(uid, drop.id)).status).toBe(404);
    expect((await call("DELETE", `${factsPath(uid)}/${drop.id}`)).status).toBe(404);
    expect((await listAll(uid)).map((f) => f.id)).toEqual([keep.id]);
  });
});

describe("facts API: types", () => {
  it("recall and list filter by type", async () => {
    const uid = uniqueId("types");
    const pref = await addFact(uid, { text: "喜欢喝咖啡", type: "preference" });
    const ctx = await addFact(uid, { text: "这周在出差，喝咖啡不方便", type: "context" });
    const plain = await addFact(uid, { text: "咖啡店在楼下", type: "fact" });

    const all = await recall(uid, "咖啡", { k: "10" });
    expect(all.map((f) => f.id).sort()).toEqual([pref.id, ctx.id, plain.id].sort());
    const onlyPref = await recall(uid, "咖啡", { k: "10", types: "preference" });
    expect(onlyPref.map((f) => f.id)).toEqual([pref.id]);
    const two = await recall(uid, "咖啡", { k: "10", types: "context,fact" });
    expect(two.map((f) => f.id).sort()).toEqual([ctx.id, plain.id].sort());

    const listed = await listPage(uid, { types: "context" });
    expect(listed.facts.map((f) => f.id)).toEqual([ctx.id]);

    const context = await contextFor(uniqueId("types-s"), { query: "咖啡", userId: uid, k: 10, types: "context" });
    expect(context.recalled.map((r) => r.id)).toEqual([ctx.id]);
    expect(context.recalled[0]).toEqual({
      id: ctx.id,
      text: "这周在出差，喝咖啡不方便",
      type: "context",
      score: expect.any(Number),
      similarity: expect.any(Number),
    });
  });

  it("a patched type is what the type filter sees", async () => {
    const uid = uniqueId("retype");
    const fact = await addFact(uid, { text: "prefers aisle seats", type: "context" });
    const res = await call<FactView>("PATCH", `${factsPath(uid)}/${fact.id}`, { body: { type: "preference" } });
    expect(res.status, res.text).toBe(200);
    expect((await recall(uid, "aisle seats", { types: "preference" })).map((f) => f.id)).toEqual([fact.id]);
    expect(await recall(uid, "aisle seats", { types: "context" })).toEqual([]);
  });

  it("ranks by similarity and honours minScore and k", async () => {
    const uid = uniqueId("rank");
    const target = await addFact(uid, { text: "the user's dog is called Rex" });
    await addFact(uid, { text: "the user prefers window seats on trains" });
    await addFact(uid, { text: "the user is learning Japanese" });
    const top = await recall(uid, "what is the dog called", { k: "1" });
    expect(top.map((f) => f.id)).toEqual([target.id]);
    const scores = (await recall(uid, "what is the dog called", { k: "3" })).map((f) => f.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(await recall(uid, "what is the dog called", { k: "3", minScore: "1" })).toEqual([]);
  });
});

describe("facts API: isolation", () => {
  it("another user and another tenant never see a user's facts", async () => {
    const userA = uniqueId("alice");
    const userB = uniqueId("bob");
    const secret = await addFact(userA, { text: "alice's locker code is 4711", type: "fact", importance: 0.9 });

    // user B, same tenant
    expect(await recall(userB, "alice's locker code is 4711", { k: "10", minScore: "0" })).toEqual([]);
    expect((await listPage(userB)).facts).toEqual([]);
    expect((await getFact(userB, secret.id)).status).toBe(404);
    expect((await call("PATCH", `${factsPath(userB)}/${secret.id}`, { body: { importance: 0.1 } })).status).toBe(404);
    expect((await call("DELETE", `${factsPath(userB)}/${secret.id}`)).status).toBe(404);

    // tenant B, the same user id
    const asB = { key: KEY_B };
    expect(await recall(userA, "alice's locker code is 4711", { k: "10", minScore: "0" }, asB)).toEqual([]);
    expect((await listPage(userA, {}, asB)).facts).toEqual([]);
    expect((await getFact(userA, secret.id, asB)).status).toBe(404);
    expect((await call("DELETE", `${factsPath(userA)}/${secret.id}`, asB)).status).toBe(404);
    expect((await call("GET", `/v1/users/${userA}/export`, asB)).json).toMatchObject({ facts: [] });
    // the same text under tenant B is a different fact
    const twin = await addFact(userA, { text: "alice's locker code is 4711" }, asB);
    expect(twin.created).toBe(true);
    expect(twin.id).not.toBe(secret.id);

    // still there, unchanged, for its owner
    expect(await findFact(userA, secret.id)).toMatchObject({ text: "alice's locker code is 4711", importance: 0.9, version: 1 });
  });
});
