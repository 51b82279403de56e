import { afterEach, describe, expect, it } from "vitest";
import { call, clearFault, injectFault, uniqueId } from "../support/helpers.ts";
import { addFact, listAll } from "../support/facts.ts";
import { setUpstreamDelay, waitFor } from "../support/chat.ts";
import { testRedis } from "../support/redis.ts";
import { append } from "../support/sessions.ts";

/**
 * Erase receipts tell the truth: the totals come from the erase's durable progress, so a Redis
 * fault midway, a retry, a repeated call whose answer was lost and parallel erases all end with
 * the true counts and one audit entry per receipt.
 */

interface Receipt {
  userId: string;
  receiptId: string;
  done: boolean;
  deleted: number;
  removed: Record<string, number>;
}

afterEach(async () => {
  await clearFault("redis");
  await setUpstreamDelay("vector", 0);
});

async function seed(user: string): Promise<void> {
  await append(
    uniqueId("rs"),
    [
      { id: "a", role: "user", content: "first" },
      { id: "b", role: "assistant", content: "ok" },
    ],
    { userId: user },
  );
  await append(uniqueId("rs"), [{ id: "c", role: "user", content: "second" }], { userId: user });
  for (const text of ["Likes green tea", "Has a cat named Miso", "Lives in Porto"])
    await addFact(user, { text, type: "fact", importance: 0.8 });
  expect(await listAll(user)).toHaveLength(3);
}

const erase = (user: string) => call<Receipt>("DELETE", `/v1/users/${user}`);

async function receiptsOf(user: string, since: number) {
  const audit = await call<{ entries: { action: string; target: { userId?: string }; details?: Record<string, unknown> }[] }>(
    "GET",
    `/v1/audit?since=${since}&limit=1000`,
  );
  expect(audit.status, audit.text).toBe(200);
  return audit.json.entries.filter((e) => e.action === "user.erase" && e.target.userId === user);
}

const TRUE_TOTALS = { sessions: 2, messages: 3, facts: 3, notes: 0, archives: 0 };

describe("erase receipts", () => {
  it("a Redis fault after the facts were deleted: the retry's receipt still counts them, once", async () => {
    const user = uniqueId("fault");
    const since = Date.now() - 1;
    await seed(user);
    await setUpstreamDelay("vector", 400);
    const first = erase(user);
    // The facts step has begun (its count is planned); Redis fails from here on.
    await waitFor(
      async () => ((await testRedis.hget(`am:acme:u:${user}:erase-job`, "p:facts")) !== null ? true : undefined),
      "the facts step",
      10_000,
    );
    await injectFault("redis", { mode: "error" });
    const failed = await first;
    expect(failed.status, failed.text).toBe(503);
    await clearFault("redis");
    await setUpstreamDelay("vector", 0);
    expect(await listAll(user)).toEqual([]);

    const retried = await erase(user);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json).toMatchObject({ done: true, removed: TRUE_TOTALS });
    // The retry's answer is lost; the client asks again: the same receipt, the same totals.
    const again = await erase(user);
    expect(again.json).toMatchObject({ done: true, receiptId: retried.json.receiptId, removed: TRUE_TOTALS, deleted: 0 });
    const receipts = await receiptsOf(user, since);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.details).toMatchObject({ receiptId: retried.json.receiptId, ...TRUE_TOTALS });
  });

  it("ten parallel erases: one receipt, the true totals in every final answer, one audit entry", async () => {
    const user = uniqueId("parallel");
    const since = Date.now() - 1;
    await seed(user);
    const answers = await Promise.all(Array.from({ length: 10 }, () => erase(user)));
    const finals: Receipt[] = [];
    for (const answer of answers) {
      expect([200, 202], answer.text).toContain(answer.status);
      let last = answer.json;
      for (let i = 0; !last.done && i < 5; i++) last = (await erase(user)).json;
      finals.push(last);
    }
    const ids = new Set(finals.map((f) => f.receiptId));
    expect(ids.size).toBe(1);
    for (const f of finals) expect(f).toMatchObject({ done: true, removed: TRUE_TOTALS });
    const receipts = await receiptsOf(user, since);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.details).toMatchObject(TRUE_TOTALS);
  });
});
