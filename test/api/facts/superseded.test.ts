import { describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { factsPath, listAll, listPage, recall, type FactView } from "../support/facts.ts";
import { append } from "../support/sessions.ts";

/**
 * Superseded facts through the facts API (the offline learner supersedes a home the user moved
 * from): `current=true` lists leave them out, and deleting a statement takes it back - the fact it
 * replaced is current again, and no fact is left naming a deleted one.
 */

/**
 * Teaches the offline learner one statement per message, each turn in its own session. Episodes
 * off: they are never superseded, and this is about the learned facts (see episodes tests).
 */
async function say(userId: string, ...statements: string[]): Promise<void> {
  for (const content of statements) await append(uniqueId("sup-s"), [{ role: "user", content }], { userId, env: { EPISODES: "off" } });
}

const dangling = (facts: FactView[]): string[] =>
  facts.filter((f) => f.supersededBy !== undefined && !facts.some((g) => g.id === f.supersededBy)).map((f) => f.text);

const byText = (facts: FactView[], fragment: string): FactView => {
  const found = facts.find((f) => f.text.includes(fragment));
  if (!found) throw new Error(`no fact with "${fragment}" in ${JSON.stringify(facts.map((f) => f.text))}`);
  return found;
};

describe("superseded facts in the facts API", () => {
  it("current=true lists only current facts; absent or false lists all, superseded ones marked", async () => {
    const uid = uniqueId("sup-list");
    await say(uid, "I live in Berlin.", "I moved to Munich.", "I have a dog called Rex.");
    const all = await listAll(uid);
    expect(all).toHaveLength(3);
    const berlin = byText(all, "Berlin");
    const munich = byText(all, "Munich");
    expect(berlin).toMatchObject({ supersededAt: expect.any(Number), supersededBy: munich.id });

    const current = await listPage(uid, { current: "true" });
    expect(current.facts.map((f) => f.id).sort()).toEqual(
      all
        .filter((f) => f.id !== berlin.id)
        .map((f) => f.id)
        .sort(),
    );
    expect(current.facts.every((f) => f.supersededAt === undefined)).toBe(true);
    expect((await listPage(uid, { current: "false" })).facts).toHaveLength(3);
    expect((await listPage(uid, { current: "1", types: "fact" })).facts.map((f) => f.id)).not.toContain(berlin.id);

    const bad = await call("GET", `${factsPath(uid)}?current=yes`);
    expect(bad.status, bad.text).toBe(400);
    expect((bad.json as { error: { message: string } }).error.message).toMatch(/^invalid query: current must be one of/);
  });

  it("deleting the current fact makes the one it superseded current again", async () => {
    const uid = uniqueId("sup-del");
    await say(uid, "I live in Berlin.", "I moved to Munich.");
    const before = await listAll(uid);
    const berlin = byText(before, "Berlin");
    const munich = byText(before, "Munich");

    const res = await call("DELETE", `${factsPath(uid)}/${munich.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ userId: uid, id: munich.id, deleted: 1, restored: berlin.id });

    const after = await listAll(uid);
    expect(after.map((f) => f.id)).toEqual([berlin.id]);
    expect(after[0]?.supersededAt).toBeUndefined();
    expect(after[0]?.supersededBy).toBeUndefined();
    expect((await listPage(uid, { current: "true" })).facts.map((f) => f.id)).toEqual([berlin.id]);
    expect((await recall(uid, "Where does the user live?", { minScore: "0" })).map((f) => f.id)).toEqual([berlin.id]);

    // The restored fact's text can be edited like every other fact, and deleting it forgets both.
    const edit = await call("PATCH", `${factsPath(uid)}/${berlin.id}`, { body: { text: "The user lives in Potsdam." } });
    expect(edit.status, edit.text).toBe(200);
    const gone = await call("DELETE", `${factsPath(uid)}/${berlin.id}`);
    expect(gone.json).toEqual({ userId: uid, id: berlin.id, deleted: 1 });
    expect(await listAll(uid)).toEqual([]);
  });

  it("deleting a superseded fact in a chain leaves no fact naming it", async () => {
    const uid = uniqueId("sup-chain");
    await say(uid, "I live in Berlin.", "I moved to Munich.", "I moved to Hamburg.");
    const before = await listAll(uid);
    const berlin = byText(before, "Berlin");
    const munich = byText(before, "Munich");
    const hamburg = byText(before, "Hamburg");
    expect(berlin.supersededBy).toBe(munich.id);
    expect(munich.supersededBy).toBe(hamburg.id);

    const res = await call("DELETE", `${factsPath(uid)}/${munich.id}`);
    expect(res.json).toEqual({ userId: uid, id: munich.id, deleted: 1 });
    const after = await listAll(uid);
    expect(dangling(after)).toEqual([]);
    expect(byText(after, "Berlin")).toMatchObject({ supersededBy: hamburg.id });
    expect(byText(after, "Hamburg").supersededAt).toBeUndefined();
  });
});
