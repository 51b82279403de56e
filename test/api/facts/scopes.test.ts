import { beforeAll, describe, expect, it } from "vitest";
import { call, clearLog, uniqueId, upstreamLog } from "../support/helpers.ts";
import { addFact, factsPath, listAll, listPage, postFact, recall, type FactView } from "../support/facts.ts";
import { expectJsonError } from "../support/sessions.ts";

// Agent scope, time and metadata filters on the facts routes: the same rule on list (filtered in
// the Worker) and recall (filtered by the Vector query), built from validated parts only.

const enc = encodeURIComponent;
const ids = (facts: readonly { id: string }[]): string[] => facts.map((f) => f.id).sort();

let user = "";
const f: Record<string, FactView> = {};
const DAY = 86_400_000;
// within every type's lifetime, so recall keeps them all
const now = Date.now();
const at = { shared: now - 40 * DAY, coach: now - 20 * DAY, family: now - 10 * DAY };
const iso = (ms: number): string => new Date(ms).toISOString();

beforeAll(async () => {
  user = uniqueId("scope");
  f.shared = (
    await addFact(user, { text: "Lives in Lisbon with a cat named Miso", metadata: { topic: "home" }, createdAt: at.shared })
  ).fact;
  f.planner = (
    await addFact(user, {
      text: "Prefers trains to planes when travelling",
      type: "preference",
      metadata: { topic: "travel", priority: 2 },
      agentId: "planner",
    })
  ).fact;
  f.coach = (
    await addFact(user, {
      text: "Runs five kilometres every morning",
      metadata: { topic: "health", urgent: true },
      agentId: "coach",
      createdAt: at.coach,
    })
  ).fact;
  f.family = (await addFact(user, { text: "Has a sister called Ana in Porto", metadata: { topic: "family" }, createdAt: at.family })).fact;
});

describe("agent scope", () => {
  it("stores the agent with the fact; the same text is one fact per agent and one shared", async () => {
    expect(f.planner).toMatchObject({ agentId: "planner" });
    expect(f.shared?.agentId).toBeUndefined();
    const again = await addFact(user, { text: "Prefers trains to planes when travelling", agentId: "planner" });
    expect(again).toMatchObject({ id: f.planner?.id, created: false });
    const otherAgent = await addFact(user, { text: "Prefers trains to planes when travelling", agentId: "coach" });
    expect(otherAgent.created).toBe(true);
    expect(otherAgent.id).not.toBe(f.planner?.id);
    const shared = await addFact(user, { text: "Prefers trains to planes when travelling" });
    expect(shared.created).toBe(true);
    expect(new Set([f.planner?.id, otherAgent.id, shared.id]).size).toBe(3);
    for (const id of [otherAgent.id, shared.id]) expect((await call("DELETE", `${factsPath(user)}/${id}`)).status).toBe(200);
  });

  it("lists and recalls an agent's own facts with the shared ones, never another agent's", async () => {
    expect(ids((await listPage(user, { agentId: "planner" })).facts)).toEqual(ids([f.shared!, f.planner!, f.family!]));
    expect(ids((await listPage(user, { agentId: "coach" })).facts)).toEqual(ids([f.shared!, f.coach!, f.family!]));
    expect(ids((await listPage(user, { agentId: "nobody" })).facts)).toEqual(ids([f.shared!, f.family!]));
    // without an agent: the user's whole memory
    expect(ids(await listAll(user))).toEqual(ids(Object.values(f)));
    const asCoach = await recall(user, "trains planes travelling", { agentId: "coach", k: "10", minScore: "0" });
    expect(asCoach.map((r) => r.id)).not.toContain(f.planner?.id);
    const asPlanner = await recall(user, "trains planes travelling", { agentId: "planner", k: "10", minScore: "0" });
    expect(asPlanner[0]?.id).toBe(f.planner?.id);
  });

  it("scopes the recall of a context read to the agent", async () => {
    const sid = uniqueId("scope-ctx");
    const text = (agentId?: string) =>
      call<{ messages: { role: string; content: string }[] }>(
        "GET",
        `/v1/sessions/${sid}/context?userId=${user}&query=${enc("prefers trains to planes when travelling")}${agentId ? `&agentId=${agentId}` : ""}`,
      ).then((res) => {
        expect(res.status, res.text).toBe(200);
        return res.json.messages.map((m) => m.content).join("\n");
      });
    expect(await text()).toContain("Prefers trains to planes");
    expect(await text("planner")).toContain("Prefers trains to planes");
    expect(await text("coach")).not.toContain("Prefers trains to planes");
    expectJsonError(await call("GET", `/v1/sessions/${sid}/context?userId=${user}&query=x&agentId=${enc("a' OR '1'='1")}`), 400);
  });

  it("refuses an invalid agent id before any upstream request", async () => {
    for (const bad of ["a' OR '1'='1", "x) OR (1=1", "*", "a b", "x".repeat(129)]) {
      await clearLog("vector");
      expectJsonError(await call("GET", `${factsPath(user)}?query=cat&agentId=${enc(bad)}`), 400);
      expectJsonError(await call("GET", `${factsPath(user)}?agentId=${enc(bad)}`), 400);
      expectJsonError(await postFact(user, { text: "x", agentId: bad }), 400);
      expect(await upstreamLog("vector"), bad).toEqual([]);
    }
  });
});

describe("time and metadata filters", () => {
  it("filters by creation time, after inclusive and before exclusive, in ms or ISO 8601", async () => {
    expect(ids((await listPage(user, { createdBefore: String(at.coach) })).facts)).toEqual(ids([f.shared!]));
    expect(ids((await listPage(user, { createdAfter: String(at.coach), createdBefore: iso(at.family) })).facts)).toEqual(ids([f.coach!]));
    const window = { createdAfter: iso(at.coach), createdBefore: String(at.family + 1), k: "10", minScore: "0" };
    const recalled = await recall(user, "a sister called Ana in Porto; runs five kilometres every morning", window);
    expect(ids(recalled)).toEqual(ids([f.coach!, f.family!]));
    const older = await recall(user, "lives in Lisbon with a cat named Miso", { createdBefore: iso(at.coach), k: "10", minScore: "0" });
    expect(older.map((r) => r.id)).toEqual([f.shared?.id]);
    expectJsonError(await call("GET", `${factsPath(user)}?createdAfter=yesterday`), 400);
    expectJsonError(await call("GET", `${factsPath(user)}?createdBefore=-5`), 400);
  });

  it("filters by metadata equality on list and recall, numbers and booleans by their text", async () => {
    expect(ids((await listPage(user, { "metadata.topic": "family" })).facts)).toEqual(ids([f.family!]));
    expect(ids((await listPage(user, { "metadata.priority": "2" })).facts)).toEqual(ids([f.planner!]));
    expect(ids((await listPage(user, { "metadata.urgent": "true", "metadata.topic": "health" })).facts)).toEqual(ids([f.coach!]));
    // a boolean also equals 1 and 0, on list as in the index's filter
    expect(ids((await listPage(user, { "metadata.urgent": "1" })).facts)).toEqual(ids([f.coach!]));
    expect(
      (await recall(user, "runs five kilometres every morning", { "metadata.urgent": "1", k: "10", minScore: "0" })).map((r) => r.id),
    ).toEqual([f.coach?.id]);
    expect((await listPage(user, { "metadata.urgent": "true", "metadata.topic": "family" })).facts).toEqual([]);
    const recalled = await recall(user, "a sister called Ana in Porto", { "metadata.topic": "family", k: "10", minScore: "0" });
    expect(recalled.map((r) => r.id)).toEqual([f.family?.id]);
    const numeric = await recall(user, "prefers trains to planes", { "metadata.priority": "2", k: "10", minScore: "0" });
    expect(numeric.map((r) => r.id)).toEqual([f.planner?.id]);
    const none = await recall(user, "a sister called Ana in Porto", { "metadata.topic": "work", k: "10", minScore: "0" });
    expect(none).toEqual([]);
  });

  it("sends the recall filter built from its parts to the index", async () => {
    await clearLog("vector");
    await recall(user, "a sister called Ana in Porto", {
      agentId: "planner",
      "metadata.topic": "family",
      createdAfter: "1",
      types: "fact",
      k: "10",
      minScore: "0",
    });
    const bodies = (await upstreamLog("vector")).filter((r) => r.path.includes("query")).map((r) => r.body);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      expect(body).toContain("type IN ('fact')");
      expect(body).toContain("(agentId = 'planner' OR HAS NOT FIELD agentId)");
      expect(body).toContain("createdAt >= 1");
      expect(body).toContain("metadata.topic = 'family'");
    }
  });
});

describe("injection through filters", () => {
  const HOSTILE_VALUES = ["family' OR '1'='1", 'x" OR agentId != "y', "family') OR (HAS FIELD text", "a' OR metadata.topic != 'zzz"];

  it.each(HOSTILE_VALUES)("a metadata value %j is one literal: it matches nothing here", async (value) => {
    expect((await listPage(user, { "metadata.topic": value })).facts).toEqual([]);
    expect(await recall(user, "a sister called Ana in Porto", { "metadata.topic": value, k: "10", minScore: "0" })).toEqual([]);
    // and the agent scope still holds next to it
    expect(await recall(user, "prefers trains to planes", { "metadata.topic": value, agentId: "coach", k: "10", minScore: "0" })).toEqual(
      [],
    );
  });

  it.each([
    ["both quotes", `a'b"c`],
    ["a backslash", "a\\' OR 1=1 --"],
    ["a control character", "a\u0000b"],
    ["a newline", "family\nOR 1=1"],
    ["an over-long value", "x".repeat(257)],
  ])("refuses a metadata value with %s before any upstream request", async (_label, value) => {
    await clearLog("vector");
    expectJsonError(await call("GET", `${factsPath(user)}?metadata.topic=${enc(value)}`), 400);
    expectJsonError(await call("GET", `${factsPath(user)}?query=x&metadata.topic=${enc(value)}`), 400);
    expect(await upstreamLog("vector")).toEqual([]);
  });

  it.each([
    "metadata.topic OR 1",
    "metadata.a.b",
    "metadata.",
    "metadata.1x",
    "metadata.__proto__",
    "metadata.x[0]",
    "metadata.to'pic",
    "metadata.to pic",
  ])("refuses the metadata key in %j", async (name) => {
    await clearLog("vector");
    const res = await call("GET", `${factsPath(user)}?query=x&${enc(name)}=family`);
    expect(expectJsonError(res, 400).error.message).toMatch(/^invalid query: /);
    expect(await upstreamLog("vector")).toEqual([]);
  });

  it("refuses a raw filter string and more than 8 metadata keys", async () => {
    const raw = await call("GET", `${factsPath(user)}?query=x&filter=${enc("type = 'fact' OR 1 = 1")}`);
    expect(expectJsonError(raw, 400).error.message).toBe(
      "invalid query: filter is not accepted: filter with type, agentId, createdAfter, createdBefore and metadata.<key>=<value>",
    );
    const many = Array.from({ length: 9 }, (_, i) => `metadata.k${i}=v`).join("&");
    expect(expectJsonError(await call("GET", `${factsPath(user)}?${many}`), 400).error.message).toMatch(/at most 8/);
    expect(expectJsonError(await call("GET", `${factsPath(user)}?metadata.topic=a&metadata.topic=b`), 400).error.message).toMatch(
      /given once/,
    );
  });
});

describe("paging", () => {
  it("answers nextCursor null on the last page", async () => {
    const page = await listPage(user, { limit: "1000" });
    expect(page.nextCursor).toBeNull();
    const first = await listPage(user, { limit: "1" });
    expect(typeof first.nextCursor).toBe("string");
  });
});
