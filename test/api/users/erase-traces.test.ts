import { afterEach, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { addFact } from "../support/facts.ts";
import { resetLlm, setLlmMode, waitForChatRequests } from "../support/llm.ts";
import { testRedis } from "../support/redis.ts";
import { append, sessionPath } from "../support/sessions.ts";

/**
 * Traces hold a turn's query and the recalled fact texts: an erase of the user deletes every one
 * of them (named in the request or reached through the session's owner), and a trace of a turn
 * that began before the erase is never stored after it.
 */

afterEach(async () => {
  await resetLlm();
});

/** Every trace value of the tenant, as text (read from Redis, not through the API). */
async function storedTraces(): Promise<string> {
  const keys = await testRedis.keys("am:acme:obs:tr:*");
  const values = await Promise.all(keys.map((k) => testRedis.get<unknown>(k)));
  return JSON.stringify(values);
}

describe("an erase and the user's traces", () => {
  it("deletes the traces of reads naming the user and of reads through the session's owner", async () => {
    const user = uniqueId("traced");
    const sid = uniqueId("traced-s");
    const secret = `Allergic to peanuts ${uniqueId("x")}`;
    await append(sid, [{ id: "m1", role: "user", content: "hello" }], { userId: user });
    await addFact(user, { text: secret, type: "fact", importance: 0.9 });
    const named = await call("GET", `${sessionPath(sid)}/context?query=${encodeURIComponent("peanuts allergy")}&userId=${user}`);
    const owned = await call("GET", `${sessionPath(sid)}/context?query=${encodeURIComponent("peanuts allergy")}`);
    const ids = [named, owned].map((r) => r.headers.get("x-memory-trace-id"));
    for (const id of ids) {
      const trace = await call("GET", `/v1/traces/${id}`);
      expect(trace.status, trace.text).toBe(200);
      expect(trace.text).toContain(secret);
    }

    const erased = await call<{ removed: { traces: number } }>("DELETE", `/v1/users/${user}`);
    expect(erased.status, erased.text).toBe(200);
    expect(erased.json.removed.traces).toBe(2);
    for (const id of ids) expect((await call("GET", `/v1/traces/${id}`)).status).toBe(404);
    expect(await storedTraces()).not.toContain(secret);
    expect(await testRedis.exists(`am:acme:obs:tru:${user}`)).toBe(0);
  });

  it("a streamed turn that began before the erase leaves no trace of the user", async () => {
    const user = uniqueId("traced-race");
    const sid = uniqueId("traced-race-s");
    const secret = `Allergic to shellfish ${uniqueId("x")}`;
    await append(sid, [{ id: "m1", role: "user", content: "hello" }], { userId: user });
    await addFact(user, { text: secret, type: "fact", importance: 0.9 });
    await setLlmMode({ mode: "fixed", text: "noted", delayMs: 1200 });
    const turn = call("POST", `${sessionPath(sid)}/chat`, {
      body: { message: "what about shellfish allergy?", stream: true },
      drain: false,
    });
    await waitForChatRequests(1, 10_000);
    const erased = await call("DELETE", `/v1/users/${user}`);
    expect(erased.status, erased.text).toBe(200);
    const res = await turn;
    await res.drained;
    expect(await storedTraces()).not.toContain(secret);
  });
});
