import { describe, expect, it } from "vitest";
import { call, clearLog, uniqueId, upstreamLog } from "../support/helpers.ts";
import { FACTS_LABEL, addFact, contextFor, factsPath, findFact, postFact, type FactView } from "../support/facts.ts";
import { append } from "../support/sessions.ts";

const isFactsMessage = (m: { role: string; content: string }) => m.role === "system" && m.content.startsWith(FACTS_LABEL);
const DAY = 86_400_000;

interface ImportResponse {
  userId: string;
  ids: string[];
  created: number;
  refreshed: number;
}

describe("recall: relevance gate and context section", () => {
  it("injects nothing for an unrelated query", async () => {
    const uid = uniqueId("gate");
    await append(uniqueId("gate-s"), [{ role: "user", content: "我叫小明，喜欢蓝色", persist: true }], { userId: uid });
    for (const query of ["What is the weather in Paris today?", "推荐一部好看的电影"]) {
      const ctx = await contextFor(uniqueId("gate-ask"), { query, userId: uid });
      expect(ctx.recalled, query).toEqual([]);
      expect(ctx.messages.filter(isFactsMessage), query).toEqual([]);
    }
  });

  it("injects the relevant fact under its type's header, ahead of a more important unrelated one", async () => {
    const uid = uniqueId("header");
    await addFact(uid, { text: "I live in Berlin", type: "fact", importance: 1 });
    await addFact(uid, { text: "I am allergic to peanuts", type: "fact", importance: 0.6 });
    await addFact(uid, { text: "I prefer green tea in the morning", type: "preference" });
    const ctx = await contextFor(uniqueId("header-s"), { query: "am I allergic to peanuts?", userId: uid, k: 3 });
    expect(ctx.recalled[0]?.text).toBe("I am allergic to peanuts");
    const [section] = ctx.messages.filter(isFactsMessage);
    expect(section?.content).toContain("\nFacts:\n- I am allergic to peanuts");
    expect(section?.content).not.toContain("green tea");
  });

  it("recalls for the session's stored user when the context request names none", async () => {
    const uid = uniqueId("owner");
    const sid = uniqueId("owner-s");
    await addFact(uid, { text: "I am allergic to peanuts", type: "fact" });
    await append(sid, [{ role: "user", content: "hello" }], { userId: uid });
    const res = await call<{ recalled: { text: string }[] }>(
      "GET",
      `/v1/sessions/${sid}/context?query=${encodeURIComponent("peanuts allergy")}`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json.recalled.map((r) => r.text)).toEqual(["I am allergic to peanuts"]);
  });
});

describe("facts with their original timestamps", () => {
  it("a single write takes createdAt as epoch ms or ISO 8601, and refuses one in the future", async () => {
    const uid = uniqueId("dated");
    const at = Date.now() - 100 * DAY;
    const byNumber = await addFact(uid, { text: "I moved to Lisbon", createdAt: at });
    expect((await findFact(uid, byNumber.id))?.createdAt).toBe(at);
    const iso = new Date(Date.now() - 20 * DAY).toISOString();
    const byIso = await addFact(uid, { text: "I started learning Portuguese", createdAt: iso });
    expect((await findFact(uid, byIso.id))?.createdAt).toBe(Date.parse(iso));
    const future = await postFact(uid, { text: "from the future", createdAt: Date.now() + 10 * DAY });
    expect(future.status, future.text).toBe(400);
    expect(future.text).toContain("createdAt");
  });

  it("imports up to 100 facts in one Vector upsert, with the same ids and dedup as single writes", async () => {
    const uid = uniqueId("import");
    const single = await addFact(uid, { text: "I am vegetarian" });
    const createdAt = Date.now() - 170 * DAY;
    await clearLog("vector");
    const res = await call<ImportResponse>("POST", `${factsPath(uid)}/import`, {
      body: {
        facts: [
          { text: "I prefer window seats", type: "preference", createdAt },
          { text: "I am vegetarian", createdAt: new Date(Date.now() - 300 * DAY).toISOString() },
          { text: "i prefer window seats." },
          { text: "My sister is called Ana", importance: 0.9, metadata: { origin: "crm" } },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ userId: uid, created: 2, refreshed: 2 });
    expect(res.json.ids[1]).toBe(single.id);
    expect(res.json.ids[2]).toBe(res.json.ids[0]);
    const upserts = (await upstreamLog("vector")).filter((r) => r.path.startsWith("/upsert"));
    expect(upserts).toHaveLength(1);
    const seat = (await findFact(uid, res.json.ids[0]!)) as FactView;
    expect(seat).toMatchObject({ text: "I prefer window seats", type: "preference", createdAt });
    // dated back: the stored fact now says when it was first stated
    expect((await findFact(uid, single.id))?.createdAt).toBeLessThan(Date.now() - 299 * DAY);
    // a preference stated 170 days ago is still recalled (its lifetime is about 180 days)
    const ctx = await contextFor(uniqueId("import-s"), { query: "do I prefer window seats?", userId: uid });
    expect(ctx.recalled.map((r) => r.text)).toContain("I prefer window seats");
  });

  it("refuses an empty import, more than 100 facts, and a future createdAt", async () => {
    const uid = uniqueId("import-bad");
    const path = `${factsPath(uid)}/import`;
    expect((await call("POST", path, { body: { facts: [] } })).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => ({ text: `fact ${i}` }));
    expect((await call("POST", path, { body: { facts: many } })).status).toBe(400);
    const future = await call("POST", path, { body: { facts: [{ text: "later", createdAt: Date.now() + DAY }] } });
    expect(future.status).toBe(400);
  });
});
