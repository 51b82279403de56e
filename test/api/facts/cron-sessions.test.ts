import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearFault, injectFault, uniqueId } from "../support/helpers.ts";
import { CURSOR_KEY, runCron, runScheduledOnce, type SavedCursor } from "../support/facts.ts";
import { shortenSessionTtl, testRedis } from "../support/redis.ts";
import { append } from "../support/sessions.ts";

// The cron's second job: index entries of sessions whose keys expired leave `am:{t}:sessions`.

const INDEX = "am:acme:sessions";

beforeEach(async () => {
  await testRedis.del(CURSOR_KEY);
});

afterEach(async () => {
  await clearFault("vector");
});

/** One live session and one whose keys have expired; returns both ids. */
async function liveAndExpired(): Promise<{ live: string; expired: string }> {
  const expired = uniqueId("cron-expired");
  const live = uniqueId("cron-live");
  await append(expired, [{ role: "user", content: "soon gone" }]);
  await append(live, [{ role: "user", content: "still here" }]);
  expect(await testRedis.zscore(INDEX, expired)).not.toBeNull();
  await shortenSessionTtl("acme", expired, 1);
  await new Promise((r) => setTimeout(r, 1500));
  return { live, expired };
}

/** Index pages (200 entries each) a full sweep of the tenant needs, plus slack. */
const pagesNeeded = async (): Promise<number> => Math.ceil((await testRedis.zcard(INDEX)) / 200) + 2;

describe("cron: session index", () => {
  it("removes index entries of sessions whose keys expired, page by page", async () => {
    const { live, expired } = await liveAndExpired();
    const pages = await pagesNeeded();
    let removed = 0;
    for (let run = 0; run < pages && (await testRedis.zscore(INDEX, expired)) !== null; run++) {
      removed += (await runCron(Date.now())).sessionEntriesRemoved;
    }
    expect(await testRedis.zscore(INDEX, expired)).toBeNull();
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await testRedis.zscore(INDEX, live)).not.toBeNull();
  });

  it("keeps sweeping, saving its position and logging while Vector is down", async () => {
    const { live, expired } = await liveAndExpired();
    await injectFault("vector", { mode: "error", durationMs: 30_000 });
    const pages = await pagesNeeded();
    for (let run = 0; run < pages && (await testRedis.zscore(INDEX, expired)) !== null; run++) {
      const { logs } = await runScheduledOnce(Date.now());
      // the run says what happened, as structured log lines
      expect(
        logs.some((l) => typeof l.level === "string" && /clean/i.test(String(l.msg))),
        JSON.stringify(logs),
      ).toBe(true);
      // and the session sweep's position is kept for the next run
      const cursor = await testRedis.get<SavedCursor>(CURSOR_KEY);
      expect(cursor?.sessions, "session-index cursor saved").toHaveProperty("acme");
    }
    expect(await testRedis.zscore(INDEX, expired)).toBeNull();
    expect(await testRedis.zscore(INDEX, live)).not.toBeNull();
  });
});
