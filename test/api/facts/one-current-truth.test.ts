import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { resetLlm, setLlmMode } from "../support/chat.ts";
import { scriptLlm } from "../support/llm.ts";
import { CURSOR_KEY, listAll, runCron, type FactView } from "../support/facts.ts";
import { testRedis } from "../support/redis.ts";
import { append } from "../support/sessions.ts";

/**
 * One current truth per relation: however many appends of one user race, learning (the offline
 * learner, the default) leaves one current home fact, and the next move supersedes it.
 */

const PARALLEL = 30;
/** 30 learning turns of one user run one after another: more than the default timeout on a loaded machine. */
const RACE_TIMEOUT_MS = 90_000;
const cities = Array.from(
  { length: PARALLEL },
  (_, i) => `City${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}ville`,
);

const currentHomes = (facts: FactView[]): FactView[] =>
  facts.filter((f) => f.supersededAt === undefined && /^The user lives in /i.test(f.text));

/** The user lived in Paris (learned from an append). */
async function livedInParis(uid: string): Promise<void> {
  await append(uniqueId("paris"), [{ role: "user", content: "I live in Paris." }], { userId: uid });
  expect(currentHomes(await listAll(uid)).map((f) => f.text)).toEqual(["The user lives in Paris."]);
}

/** After the race: one current home among the raced cities; then Tokyo supersedes it and every other home. */
async function expectOneTruthThenTokyo(uid: string): Promise<void> {
  const homes = currentHomes(await listAll(uid));
  expect(homes.map((f) => f.text)).toHaveLength(1);
  expect(cities.map((c) => `The user lives in ${c}.`)).toContain(homes[0]!.text);
  await append(uniqueId("tokyo"), [{ role: "user", content: "I moved to Tokyo." }], { userId: uid });
  const after = await listAll(uid);
  expect(currentHomes(after).map((f) => f.text)).toEqual(["The user lives in Tokyo."]);
  // the others stay, marked as superseded (history keeps them)
  const paris = after.find((f) => f.text === "The user lives in Paris.");
  expect(paris?.supersededAt).toBeTypeOf("number");
}

beforeEach(async () => {
  await resetLlm();
  await setLlmMode({ mode: "echo" });
});
afterEach(resetLlm);

describe("parallel contradicting statements leave one current truth", () => {
  it(
    `POST /v1/sessions/{id}/messages: ${PARALLEL} parallel appends`,
    async () => {
      const uid = uniqueId("race-append");
      await livedInParis(uid);
      const sid = uniqueId("race");
      const results = await Promise.all(
        cities.map((city) =>
          call("POST", `/v1/sessions/${sid}/messages`, {
            body: { userId: uid, messages: [{ role: "user", content: `I live in ${city}.` }] },
          }),
        ),
      );
      for (const res of results) expect(res.status, res.text).toBe(201);
      await expectOneTruthThenTokyo(uid);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    `POST /v1/sessions/{id}/chat: ${PARALLEL} parallel turns`,
    async () => {
      const uid = uniqueId("race-chat");
      await livedInParis(uid);
      const results = await Promise.all(
        cities.map((city) =>
          call("POST", `/v1/sessions/${uniqueId("race-chat")}/chat`, { body: { userId: uid, message: `I live in ${city}.` } }),
        ),
      );
      for (const res of results) expect(res.status, res.text).toBe(200);
      await expectOneTruthThenTokyo(uid);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    `POST /v1/chat/completions: ${PARALLEL} parallel proxied turns`,
    async () => {
      const uid = uniqueId("race-proxy");
      await livedInParis(uid);
      const sid = uniqueId("race-proxy");
      const results = await Promise.all(
        cities.map((city) =>
          call("POST", "/v1/chat/completions", {
            headers: { "X-Memory-Session": sid, "X-Memory-User": uid },
            body: { model: "fake-model", messages: [{ role: "user", content: `I live in ${city}.` }] },
          }),
        ),
      );
      for (const res of results) expect(res.status, res.text).toBe(200);
      await expectOneTruthThenTokyo(uid);
    },
    RACE_TIMEOUT_MS,
  );
});

describe("with the LLM learner (FACT_EXTRACTION=llm)", () => {
  const LLM = { FACT_EXTRACTION: "llm" };
  const MARKER = "You maintain the long-term memory";
  const adds = (text: string) => ({
    text: JSON.stringify({ operations: [{ op: "add", memory: "", text, type: "fact", importance: 0.8 }] }),
  });

  it(
    `${PARALLEL} parallel appends whose extraction only adds: each statement still ends the current home it was shown`,
    async () => {
      const uid = uniqueId("race-llm");
      await scriptLlm(MARKER, [adds("The user lives in Paris.")]);
      await append(uniqueId("paris"), [{ role: "user", content: "I live in Paris." }], { userId: uid, env: LLM });
      await scriptLlm(
        MARKER,
        cities.map((city) => adds(`The user lives in ${city}.`)),
      );
      const sid = uniqueId("race-llm");
      const results = await Promise.all(
        cities.map((city) =>
          call("POST", `/v1/sessions/${sid}/messages`, {
            body: { userId: uid, messages: [{ role: "user", content: `I live in ${city}.` }] },
            env: LLM,
          }),
        ),
      );
      for (const res of results) expect(res.status, res.text).toBe(201);
      expect(currentHomes(await listAll(uid))).toHaveLength(1);
      await scriptLlm(MARKER, [adds("The user lives in Tokyo.")]);
      await append(uniqueId("tokyo"), [{ role: "user", content: "I moved to Tokyo." }], { userId: uid, env: LLM });
      expect(currentHomes(await listAll(uid)).map((f) => f.text)).toEqual(["The user lives in Tokyo."]);
    },
    RACE_TIMEOUT_MS,
  );
});

describe("the cron repairs duplicates", () => {
  it("keeps the newest of two current facts of one single-valued relation and marks the other superseded by it; an agent's own fact stays", async () => {
    const uid = uniqueId("dupes");
    const t0 = Date.now() - 60_000;
    // Imported as written: an import is the client's word and supersedes nothing, so both are current.
    const res = await call<{ ids: string[] }>("POST", `/v1/users/${uid}/facts/import`, {
      body: {
        facts: [
          { text: "The user lives in Paris.", createdAt: t0 },
          { text: "The user lives in Rome.", createdAt: t0 + 1000 },
          { text: "The user lives in Oslo.", createdAt: t0, agentId: "planner" },
          { text: "The user has a dog.", createdAt: t0 },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    const [paris, rome, oslo] = res.json.ids;
    // Rome was written last: the newest current fact of the relation stays current.
    await testRedis.del(CURSOR_KEY);
    await runCron(Date.now(), { CLEANUP_BATCH: "100000" }).then((run) => expect(run.completedPass).toBe(true));
    const after = new Map((await listAll(uid)).map((f) => [f.id, f]));
    expect(
      currentHomes([...after.values()])
        .map((f) => f.id)
        .sort(),
    ).toEqual([rome, oslo].sort());
    expect(after.get(paris!)).toMatchObject({ supersededBy: rome, supersededAt: expect.any(Number) });
    expect(after.get(rome!)?.supersededAt).toBeUndefined();
    expect(after.get(oslo!)?.supersededAt).toBeUndefined();
    expect([...after.values()].find((f) => f.text === "The user has a dog.")?.supersededAt).toBeUndefined();
  });
});

describe("the learning records and an erase", () => {
  it("a learning turn records the ids it wrote, and erasing the user removes that record and the lock", async () => {
    const uid = uniqueId("erase-learned");
    await append(uniqueId("s"), [{ role: "user", content: "I live in Paris." }], { userId: uid });
    const learned = `am:acme:u:${uid}:learned`;
    expect(await testRedis.zcard(learned)).toBe(1);
    expect(await testRedis.exists(`am:acme:u:${uid}:learn-lock`)).toBe(0);
    const erased = await call<{ done: boolean }>("DELETE", `/v1/users/${uid}`);
    expect(erased.status, erased.text).toBe(200);
    expect(await testRedis.exists(learned)).toBe(0);
  });
});
