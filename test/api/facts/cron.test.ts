import { env } from "cloudflare:test";
import { Index } from "@upstash/vector/cloudflare";
import { beforeEach, describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/worker/env.ts";
import { namespaceToScope } from "../../../src/stores/fact-namespace.ts";
import { uniqueId } from "../support/helpers.ts";
import {
  CURSOR_KEY,
  addFact,
  contextFor,
  findFact,
  listAll,
  mergeRecallCounts,
  runCron,
  type CleanupRun,
  type FactType,
  type SavedCursor,
} from "../support/facts.ts";
import { testRedis } from "../support/redis.ts";

// The cron handler sweeps every namespace of the shared emulator, other files' facts included:
// assertions are about this file's users only, and each test starts a fresh pass.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const bindings = env as unknown as Bindings & { UPSTASH_VECTOR_REST_URL: string; UPSTASH_VECTOR_REST_TOKEN: string };

/**
 * Runs the cron until a pass over every namespace completes (from the start, or from where the
 * saved cursor stands with `resume`); returns each run's log.
 */
async function sweepPass(
  scheduledTime: number,
  overrides: Record<string, string> = {},
  resume = false,
  maxRuns = 2000,
): Promise<CleanupRun[]> {
  if (!resume) await testRedis.del(CURSOR_KEY);
  const runs: CleanupRun[] = [];
  while (runs.length < maxRuns) {
    const run = await runCron(scheduledTime, overrides);
    runs.push(run);
    if (run.completedPass) return runs;
  }
  throw new Error(`no complete pass within ${maxRuns} runs`);
}

/** Facts currently stored in this service's namespaces (what one pass has to examine). */
async function factsInEmulator(): Promise<number> {
  const index = new Index({ url: bindings.UPSTASH_VECTOR_REST_URL, token: bindings.UPSTASH_VECTOR_REST_TOKEN, enableTelemetry: false });
  const info = await index.info();
  return Object.entries(info.namespaces).reduce((n, [ns, s]) => n + (namespaceToScope(ns) ? s.vectorCount : 0), 0);
}

const readCursor = () => testRedis.get<SavedCursor>(CURSOR_KEY);

beforeEach(async () => {
  await testRedis.del(CURSOR_KEY);
});

async function addTyped(userId: string, text: string, type: FactType, importance: number): Promise<string> {
  return (await addFact(userId, { text, type, importance })).id;
}

describe("cron: lifecycle", () => {
  it("drops expired and decayed facts, keeps fresh and frequently used ones", async () => {
    const uid = uniqueId("cron-life");
    const start = Date.now();
    const temporary = await addTyped(uid, "会议室 A 今天下午被占用", "temporary", 0.9);
    const context = await addTyped(uid, "this week the user is travelling in Japan", "context", 0.9);
    const durable = await addTyped(uid, "the user is allergic to shellfish", "fact", 0.9);
    const faded = await addTyped(uid, "the user somewhat likes jazz", "preference", 0.15);
    const used = await addTyped(uid, "the user enjoys rainy afternoons", "preference", 0.15);
    for (let i = 0; i < 5; i++) {
      const ctx = await contextFor(uniqueId("cron-ctx"), { query: "the user enjoys rainy afternoons", userId: uid, k: 1 });
      expect(ctx.recalled.map((r) => r.id)).toEqual([used]);
    }
    await mergeRecallCounts(start);
    expect((await findFact(uid, used))?.accessCount).toBe(5);

    // two hours on: only the temporary fact (1 h TTL) is gone
    const early = await sweepPass(start + 2 * HOUR);
    expect(early.reduce((n, r) => n + r.factsDeleted, 0)).toBeGreaterThanOrEqual(1);
    expect(await findFact(uid, temporary)).toBeNull();
    for (const id of [context, durable, faded, used]) expect(await findFact(uid, id), id).not.toBeNull();

    // nine days on: context (7 d TTL) expired; the unused low-importance preference decayed below
    // the floor; the same preference recalled five times survives on its use; the fact stays
    await sweepPass(start + 9 * DAY);
    expect(await findFact(uid, context)).toBeNull();
    expect(await findFact(uid, faded)).toBeNull();
    expect(await findFact(uid, durable)).not.toBeNull();
    expect(await findFact(uid, used)).not.toBeNull();
    expect((await listAll(uid)).map((f) => f.id).sort()).toEqual([durable, used].sort());
  });

  it("keeps everything when nothing is due", async () => {
    const uid = uniqueId("cron-fresh");
    const ids = [
      await addTyped(uid, "temporary note for the next minutes", "temporary", 0.5),
      await addTyped(uid, "context of this afternoon", "context", 0.5),
      await addTyped(uid, "likes green tea", "preference", 0.5),
    ];
    await sweepPass(Date.now() + 60_000);
    expect((await listAll(uid)).map((f) => f.id).sort()).toEqual([...ids].sort());
  });
});

describe("cron: bounded runs", () => {
  it("stops each run at CLEANUP_BATCH and resumes from the cursor saved in Redis", async () => {
    const batch = { CLEANUP_BATCH: "10" };
    const tag = uniqueId("cron-batch");
    const users = Array.from({ length: 6 }, (_, i) => `${tag}-u${i}`);
    const keeper = `${tag}-keeper`;
    for (const user of users) {
      for (let j = 0; j < 5; j++) await addTyped(user, `temporary item ${j} of ${user}`, "temporary", 0.5);
    }
    const kept: string[] = [];
    for (let j = 0; j < 5; j++) kept.push(await addTyped(keeper, `lasting fact ${j} of ${keeper}`, "fact", 0.9));
    const total = await factsInEmulator();
    expect(total).toBeGreaterThanOrEqual(35);
    const at = Date.now() + 2 * HOUR;

    const first = await runCron(at, batch);
    expect(first.factsExamined).toBe(10);
    expect(first.completedPass).toBe(false);
    const afterFirst = await readCursor();
    expect(afterFirst?.scope).toMatch(/\u0000/);

    const second = await runCron(at, batch);
    expect(second.factsExamined).toBeLessThanOrEqual(10);
    const afterSecond = await readCursor();
    expect((afterSecond?.scope ?? "") >= (afterFirst?.scope ?? "") || second.completedPass).toBe(true);

    const rest = second.completedPass ? [] : await sweepPass(at, batch, true);
    const runs = [first, second, ...rest];
    for (const run of runs) expect(run.factsExamined).toBeLessThanOrEqual(10);
    expect(runs.length).toBeGreaterThanOrEqual(Math.ceil(total / 10));
    // resumed, never restarted: one pass looked at every fact exactly once
    expect(runs.reduce((n, r) => n + r.factsExamined, 0)).toBe(total);
    expect(await readCursor()).toMatchObject({ scope: "", factCursor: "" });

    for (const user of users) expect(await listAll(user), user).toEqual([]);
    expect((await listAll(keeper)).map((f) => f.id).sort()).toEqual([...kept].sort());
  });
});
