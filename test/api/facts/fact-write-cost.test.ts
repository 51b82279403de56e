import { beforeAll, describe, expect, it } from "vitest";
import { call, clearLog, uniqueId, upstreamLog } from "../support/helpers.ts";
import { chatTurn } from "../support/chat.ts";
import { addFact, factsPath, listAll, postFact } from "../support/facts.ts";
import { testRedis } from "../support/redis.ts";

// Writing a fact asks the user's content index in Redis whether its text is new; a new fact then
// costs one Vector request (the upsert), and so does a restatement that adds nothing (a metadata
// update); only one that adds something (a higher importance) reads the fact first.

const TENANT = "acme";
const indexKey = (userId: string): string => `am:${TENANT}:u:${userId}:content`;

/** Vector requests since the last clear, by the first segment of their path (`upsert-data`, `range`, ...). */
async function vectorCalls(): Promise<string[]> {
  return (await upstreamLog("vector")).map((r) => r.path.split("/")[1] ?? "");
}

/** A persisted chat turn; returns the Vector requests it made besides the recall query. */
async function persistTurn(userId: string, message: string): Promise<string[]> {
  await clearLog("vector");
  await chatTurn(uniqueId("cost-s"), { message, userId, persist: true });
  // the recall of the turn itself is its one query on the critical path
  const calls = await vectorCalls();
  const recall = calls.findIndex((c) => c.startsWith("query"));
  return calls.filter((_, i) => i !== recall);
}

beforeAll(async () => {
  // The first request of an isolate that needs Vector checks the index against the configuration
  // (one `info`); the verdict is kept, so no later request repeats it. The Worker files share one
  // isolate, so an earlier file may have made that check already. The counts below are the steady
  // state after it.
  const first = await persistTurn(uniqueId("cost-first"), "I keep bees on the roof");
  const checks = first.filter((c) => c === "info").length;
  expect(checks).toBeLessThanOrEqual(1);
  if (checks === 1) expect(first[0]).toBe("info");
  expect(await persistTurn(uniqueId("cost-second"), "I keep bees on the roof")).not.toContain("info");
});

describe("fact writes: one Vector request for a new fact", () => {
  it("a user's first persisted fact lists the (empty) index once, later new facts cost just the upsert", async () => {
    const user = uniqueId("cost-user");
    expect(await persistTurn(user, "I am allergic to peanuts")).toEqual(["range", "upsert-data"]);
    expect(String(await testRedis.hget(indexKey(user), "complete"))).toBe("1");
    expect(await persistTurn(user, "My sister lives in Oslo")).toEqual(["upsert-data"]);
    expect(await persistTurn(user, "I drive a blue Volvo")).toEqual(["upsert-data"]);
    expect((await listAll(user)).map((f) => f.text).sort()).toEqual([
      "I am allergic to peanuts",
      "I drive a blue Volvo",
      "My sister lives in Oslo",
    ]);
  });

  it("a restatement is one metadata update: creation time kept, next version, newer updatedAt", async () => {
    const user = uniqueId("cost-restate");
    await persistTurn(user, "I work night shifts on Wednesdays");
    const [before] = await listAll(user);
    expect(await persistTurn(user, "I work night shifts on Wednesdays")).toEqual(["update"]);
    const [after] = await listAll(user);
    expect(after?.id).toBe(before?.id);
    expect(after?.createdAt).toBe(before?.createdAt);
    expect(after?.version).toBe((before?.version ?? 0) + 1);
    expect(after?.updatedAt).toBeGreaterThan(before?.updatedAt ?? 0);
  });

  it("a restatement that raises the importance reads the fact and writes the merge", async () => {
    const user = uniqueId("cost-raise");
    const sid = uniqueId("cost-raise-s");
    const persist = (id: string, importance: number) =>
      call("POST", `/v1/sessions/${sid}/messages`, {
        body: { userId: user, messages: [{ id, role: "user", content: "I take insulin twice a day", persist: true, importance }] },
      });
    expect((await persist("m1", 0.4)).status).toBe(201);
    const [before] = await listAll(user);
    await clearLog("vector");
    expect((await persist("m2", 0.9)).status).toBe(201);
    expect(await vectorCalls()).toEqual(["fetch", "upsert-data"]);
    const [after] = await listAll(user);
    expect(after).toMatchObject({ id: before?.id, importance: 0.9, createdAt: before?.createdAt, version: (before?.version ?? 0) + 1 });
  });

  it("the facts API writes a new fact with one Vector request and answers a restatement as one fact", async () => {
    const user = uniqueId("cost-api");
    await addFact(user, { text: "prefers window seats" });
    await clearLog("vector");
    const created = await addFact(user, { text: "speaks Danish and English" });
    expect(created.created).toBe(true);
    expect(await vectorCalls()).toEqual(["upsert-data"]);
    const again = await postFact(user, { text: "speaks Danish and English." });
    expect(again.json).toMatchObject({ id: created.id, created: false });
  });

  it("after a delete the same text is a new fact again, found without reading the index", async () => {
    const user = uniqueId("cost-delete");
    const first = await addFact(user, { text: "has a cat named Miso" });
    expect((await call("DELETE", `${factsPath(user)}/${first.id}`)).status).toBe(200);
    await clearLog("vector");
    const again = await addFact(user, { text: "has a cat named Miso" });
    expect(again.created).toBe(true);
    expect(again.fact.version).toBe(1);
    expect(await vectorCalls()).toEqual(["upsert-data"]);
  });

  it("facts stored before the index existed are found, and the index is built from them", async () => {
    const user = uniqueId("cost-legacy");
    const stored = await addFact(user, { text: "born in Aarhus" });
    await addFact(user, { text: "married to Tomas" });
    // as if both were written before the index: nothing in Redis knows them
    await testRedis.del(indexKey(user));
    const again = await postFact(user, { text: "born in Aarhus" });
    expect(again.json).toMatchObject({ id: stored.id, created: false });
    expect(again.json.fact.createdAt).toBe(stored.fact.createdAt);
    expect(String(await testRedis.hget(indexKey(user), "complete"))).toBe("1");
    expect(await testRedis.hget(indexKey(user), `c:${stored.id}`)).toBe(stored.id);
  });

  it("an edited fact still holds its first id: a new statement of the old text gets another id", async () => {
    const user = uniqueId("cost-edit");
    const original = await addFact(user, { text: "works at a bank" });
    expect((await call("PATCH", `${factsPath(user)}/${original.id}`, { body: { text: "works at a hospital" } })).status).toBe(200);
    const old = await addFact(user, { text: "works at a bank" });
    expect(old.created).toBe(true);
    expect(old.id).not.toBe(original.id);
    expect((await listAll(user)).map((f) => f.text).sort()).toEqual(["works at a bank", "works at a hospital"]);
  });

  it("an erase drops the user's index with the facts", async () => {
    const user = uniqueId("cost-erase");
    await addFact(user, { text: "likes sailing" });
    expect(await testRedis.exists(indexKey(user))).toBe(1);
    const erased = await call("DELETE", `/v1/users/${user}`);
    expect([200, 202]).toContain(erased.status);
    expect(await testRedis.exists(indexKey(user))).toBe(0);
  });
});
