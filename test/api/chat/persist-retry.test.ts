import { afterEach, describe, expect, it } from "vitest";
import { call, clearFault, injectFault, uniqueId } from "../support/helpers.ts";
import { listAll } from "../support/facts.ts";
import { testRedis } from "../support/redis.ts";
import { postMessages } from "../support/sessions.ts";

/** A persisted fact queued while Vector was down reaches Vector when the client retries the append. */

afterEach(async () => {
  await clearFault("vector");
});

describe("a persisted fact queued while Vector was down", () => {
  it("is delivered by the retried append", async () => {
    const user = uniqueId("persist-retry");
    const sid = uniqueId("persist-retry-s");
    const messages = [{ id: "m1", role: "user" as const, content: "I keep bees on my roof", persist: true }];
    await injectFault("vector", { mode: "error" });
    const first = await postMessages(sid, messages, { userId: user });
    expect(first.status, first.text).toBe(201);
    await first.drained;
    expect(await testRedis.hlen(`am:acme:u:${user}:pending`)).toBe(1);
    await clearFault("vector");
    const retried = await postMessages(sid, messages, { userId: user });
    expect(retried.status, retried.text).toBe(201);
    await retried.drained;
    expect((await listAll(user)).map((f) => f.text)).toContain("I keep bees on my roof");
    expect(await testRedis.hlen(`am:acme:u:${user}:pending`)).toBe(0);
  });

  it("is delivered by the retried chat turn (answered from storage)", async () => {
    const user = uniqueId("persist-retry-chat");
    const sid = uniqueId("persist-retry-chat-s");
    const body = { message: "I keep goats in the garden", messageId: "q1", userId: user, persist: true };
    await injectFault("vector", { mode: "error" });
    const first = await call("POST", `/v1/sessions/${sid}/chat`, { body });
    expect(first.status, first.text).toBe(200);
    await clearFault("vector");
    const retried = await call("POST", `/v1/sessions/${sid}/chat`, { body });
    expect(retried.status, retried.text).toBe(200);
    expect((await listAll(user)).map((f) => f.text)).toContain("I keep goats in the garden");
    expect(await testRedis.hlen(`am:acme:u:${user}:pending`)).toBe(0);
  });
});
