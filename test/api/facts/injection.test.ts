import { beforeAll, describe, expect, it } from "vitest";
import { KEY_B, call, clearLog, uniqueId, upstreamLog } from "../support/helpers.ts";
import { addFact, findFact, getFact, listAll, listPage, recall } from "../support/facts.ts";
import { expectJsonError } from "../support/sessions.ts";

// User ids, fact ids and types end up in Vector namespaces and filter strings. Anything crafted to
// change a filter's meaning must be refused at the edge, before any upstream request.

const HOSTILE_USERS = [
  "a' OR '1'='1",
  "x OR type = 'fact'",
  "victim) OR (1=1",
  "a:b",
  "*",
  "../victim",
  "ａlice",
  "-leading-dash",
  "x".repeat(129),
];

const HOSTILE_TYPES = ["fact) OR (1=1", "fact' OR type != '", "fact OR 1=1", "FACT", "fact,unknown", ",", "preference)"];

const enc = encodeURIComponent;

let victim = "";
let victimFact = "";

beforeAll(async () => {
  victim = uniqueId("victim");
  victimFact = (await addFact(victim, { text: "victim's secret: the spare key is under the mat", type: "fact", importance: 0.9 })).id;
});

/** Runs `request` and checks it was refused with 400 and reached neither Redis nor Vector. */
async function expectRefusedUntouched(label: string, request: () => ReturnType<typeof call>): Promise<void> {
  await clearLog("vector");
  await clearLog("redis");
  const res = await request();
  expect(res.status, `${label}: ${res.text}`).toBe(400);
  expectJsonError(res, 400);
  expect(await upstreamLog("vector"), label).toEqual([]);
  expect(await upstreamLog("redis"), label).toEqual([]);
}

describe("hostile user ids", () => {
  it.each(HOSTILE_USERS)("refuses %j on every user route without touching an upstream", async (userId) => {
    const u = enc(userId);
    const sid = uniqueId("inj");
    await expectRefusedUntouched("add", () => call("POST", `/v1/users/${u}/facts`, { body: { text: "I own everything" } }));
    await expectRefusedUntouched("recall", () => call("GET", `/v1/users/${u}/facts?query=${enc("secret key")}`));
    await expectRefusedUntouched("list", () => call("GET", `/v1/users/${u}/facts`));
    await expectRefusedUntouched("get", () => call("GET", `/v1/users/${u}/facts/${victimFact}`));
    await expectRefusedUntouched("patch", () => call("PATCH", `/v1/users/${u}/facts/${victimFact}`, { body: { importance: 0 } }));
    await expectRefusedUntouched("delete", () => call("DELETE", `/v1/users/${u}/facts/${victimFact}`));
    await expectRefusedUntouched("export", () => call("GET", `/v1/users/${u}/export`));
    await expectRefusedUntouched("erase", () => call("DELETE", `/v1/users/${u}`));
    await expectRefusedUntouched("context", () => call("GET", `/v1/sessions/${sid}/context?query=${enc("secret key")}&userId=${u}`));
    await expectRefusedUntouched("append", () =>
      call("POST", `/v1/sessions/${sid}/messages`, {
        body: { userId, messages: [{ role: "user", content: "remember me", persist: true }] },
      }),
    );
  });
});

describe("ids that look like namespaces", () => {
  it("are ordinary users of their own namespace, never the one they spell", async () => {
    // `am.{tenant length}.{tenant}.{user}` is unambiguous: these valid ids name other scopes.
    for (const [userId, key] of [
      [`am.4.acme.${victim}`, undefined],
      [`acme.${victim}`, KEY_B],
      [`4.acme.${victim}`, undefined],
    ] as const) {
      const as = key === undefined ? {} : { key };
      expect(await recall(userId, "the spare key is under the mat", { k: "10", minScore: "0" }, as), userId).toEqual([]);
      expect((await listPage(userId, {}, as)).facts, userId).toEqual([]);
      expect((await getFact(userId, victimFact, as)).status, userId).toBe(404);
    }
  });
});

describe("hostile types and fact ids", () => {
  it.each(HOSTILE_TYPES)("refuses types=%j on recall, list and context", async (types) => {
    const t = enc(types);
    await expectRefusedUntouched("recall", () => call("GET", `/v1/users/${victim}/facts?query=key&types=${t}`));
    await expectRefusedUntouched("recall type", () => call("GET", `/v1/users/${victim}/facts?query=key&type=${t}`));
    await expectRefusedUntouched("list", () => call("GET", `/v1/users/${victim}/facts?types=${t}`));
    await expectRefusedUntouched("context", () =>
      call("GET", `/v1/sessions/${uniqueId("inj")}/context?query=key&userId=${victim}&types=${t}`),
    );
  });

  it("refuses a crafted type in a new fact or a patch", async () => {
    await expectRefusedUntouched("add", () => call("POST", `/v1/users/${victim}/facts`, { body: { text: "x", type: "fact' OR '1'='1" } }));
    await expectRefusedUntouched("patch", () =>
      call("PATCH", `/v1/users/${victim}/facts/${victimFact}`, { body: { type: "fact) OR (1=1" } }),
    );
  });

  it.each(["f1' OR '1'='1", "x OR id != ''", "*", "a:b"])("refuses the fact id %j", async (factId) => {
    const f = enc(factId);
    await expectRefusedUntouched("get", () => call("GET", `/v1/users/${victim}/facts/${f}`));
    await expectRefusedUntouched("patch", () => call("PATCH", `/v1/users/${victim}/facts/${f}`, { body: { importance: 0 } }));
    await expectRefusedUntouched("delete", () => call("DELETE", `/v1/users/${victim}/facts/${f}`));
  });

  it("left the victim's facts exactly as they were", async () => {
    const facts = await listAll(victim);
    expect(facts.map((f) => f.id)).toEqual([victimFact]);
    expect(await findFact(victim, victimFact)).toMatchObject({ importance: 0.9, type: "fact", version: 1, accessCount: 0 });
  });
});
