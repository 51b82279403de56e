import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../../src/index.ts";
import type { Bindings } from "../../../src/worker/env.ts";
import { uniqueId } from "../support/helpers.ts";
import { addFact, capturingLogs, contextFor, findFact, mergeRecallCounts, runCron } from "../support/facts.ts";
import { testRedis } from "../support/redis.ts";

// Runs the cron (it acts on every user), so this file runs alone (api-serial), like the other cron files.

/** Where the running cleanup's owner token is kept (beside its cursor, `am:_system:cleanup`). */
const LOCK_KEY = "am:_system:cleanup-lock";
const SKIPPED = "cleanup skipped: another cleanup run holds the run lock";

/** Starts the Worker's `scheduled` export `count` times at once and waits for all; returns every JSON log line. */
function runConcurrently(count: number, scheduledTime: number): Promise<Record<string, unknown>[]> {
  return capturingLogs(async () => {
    const contexts = Array.from({ length: count }, () => createExecutionContext());
    for (const ctx of contexts) {
      const controller = createScheduledController({ scheduledTime: new Date(scheduledTime), cron: "*/15 * * * *" });
      await worker.scheduled(controller, env as unknown as Bindings, ctx);
    }
    await Promise.all(contexts.map((ctx) => waitOnExecutionContext(ctx)));
  });
}

const byMessage = (logs: Record<string, unknown>[], msg: string) => logs.filter((l) => l.msg === msg);

afterEach(async () => {
  // never leave a lease behind for the next file's cron runs
  await testRedis.del(LOCK_KEY);
});

describe("cron: one cleanup run at a time", () => {
  it("two runs started together: one runs, the other skips, and each recall is merged once", async () => {
    const uid = uniqueId("cron-overlap");
    const start = Date.now();
    const { id } = await addFact(uid, { text: "the user collects antique maps", type: "preference", importance: 0.6 });
    // nothing else left to merge, so the run that works covers this user's counts
    await mergeRecallCounts(start);
    const recalls = 3;
    for (let i = 0; i < recalls; i++) {
      const ctx = await contextFor(uniqueId("cron-overlap-ctx"), { query: "the user collects antique maps", userId: uid, k: 1 });
      expect(ctx.recalled.map((r) => r.id)).toEqual([id]);
    }
    expect((await findFact(uid, id))?.accessCount).toBe(0);

    const logs = await runConcurrently(2, start);
    // each recall counted once: two runs merging the same counts would add them twice
    expect((await findFact(uid, id))?.accessCount, JSON.stringify(logs)).toBe(recalls);
    const ran = byMessage(logs, "cleanup run");
    expect(ran, JSON.stringify(logs)).toHaveLength(1);
    expect(ran[0]).toMatchObject({ recallsMerged: 1 });
    expect(byMessage(logs, SKIPPED)).toEqual([expect.objectContaining({ level: "warn", skipped: "locked" })]);
    // the skipping run did nothing else either (no backup run of its own)
    expect(byMessage(logs, "backup run").length).toBeLessThanOrEqual(1);
    expect(await testRedis.exists(LOCK_KEY)).toBe(0);

    // the next runs find nothing more to merge: the count stays, and a new recall adds one
    await mergeRecallCounts(start);
    expect((await findFact(uid, id))?.accessCount).toBe(recalls);
    await contextFor(uniqueId("cron-overlap-ctx"), { query: "the user collects antique maps", userId: uid, k: 1 });
    await mergeRecallCounts(start);
    expect((await findFact(uid, id))?.accessCount).toBe(recalls + 1);
  });

  it("a run that finds the lease held (a run still going, or one that died) does nothing; once it is gone the next run works", async () => {
    const uid = uniqueId("cron-held");
    const start = Date.now();
    const { id } = await addFact(uid, { text: "the user grows chili peppers on the balcony", type: "preference", importance: 0.6 });
    await mergeRecallCounts(start);
    const ctx = await contextFor(uniqueId("cron-held-ctx"), { query: "the user grows chili peppers on the balcony", userId: uid, k: 1 });
    expect(ctx.recalled.map((r) => r.id)).toEqual([id]);

    await testRedis.set(LOCK_KEY, "cl_other-run", { px: 60_000 });
    const logs = await runConcurrently(1, start);
    expect(byMessage(logs, SKIPPED), JSON.stringify(logs)).toHaveLength(1);
    expect(byMessage(logs, "cleanup run")).toEqual([]);
    expect((await findFact(uid, id))?.accessCount).toBe(0);
    // another run's lease is left alone
    expect(await testRedis.get(LOCK_KEY)).toBe("cl_other-run");

    // the lease expired (its run died) or was released
    await testRedis.del(LOCK_KEY);
    expect(await runCron(start)).toMatchObject({ recallsMerged: 1 });
    expect((await findFact(uid, id))?.accessCount).toBe(1);
  });
});
