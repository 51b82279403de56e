import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, uniqueId } from "../support/helpers.ts";
import { chatRequests, clearLlmRequests, resetLlm, setLlmMode } from "../support/llm.ts";
import { readSession } from "../support/chat.ts";

/**
 * A session reset ends the conversation, the retry tag of its last request included: the same
 * request after the reset is a new turn, never a client's automatic retry of the old one.
 * (Drives the fake LLM's failure mode: runs alone.)
 */

const question = "what is the capital of Portugal?";

function proxyTurn(sessionId: string) {
  return call("POST", "/v1/chat/completions", {
    body: { model: "fake-model", messages: [{ role: "user", content: question }] },
    headers: { "X-Memory-Session": sessionId },
  });
}

describe("a reset after a failed proxy turn", () => {
  beforeEach(resetLlm);
  afterEach(resetLlm);

  it("stores the same request again as a new turn and sends it upstream", async () => {
    const sid = uniqueId("reset-retry");
    await setLlmMode({ mode: "error", status: 500 });
    const failed = await proxyTurn(sid);
    expect(failed.status, failed.text).toBe(502);
    expect((await readSession(sid)).window.map((m) => m.content)).toEqual([question]);

    const reset = await call("DELETE", `/v1/sessions/${sid}`);
    expect(reset.status, reset.text).toBe(200);
    expect((await readSession(sid)).window).toEqual([]);

    await setLlmMode({ mode: "echo" });
    await clearLlmRequests();
    const again = await proxyTurn(sid);
    expect(again.status, again.text).toBe(200);
    const [sent] = (await chatRequests()).filter((r) => r.path === "/chat/completions");
    expect(sent?.body.messages?.map((m) => [m.role, m.content])).toEqual([["user", question]]);
    expect((await readSession(sid)).window.map((m) => [m.role, m.content])).toEqual([
      ["user", question],
      ["assistant", question],
    ]);
  });

  it("still recognizes a retry when no reset came between", async () => {
    const sid = uniqueId("reset-retry-plain");
    await setLlmMode({ mode: "error", status: 500 });
    expect((await proxyTurn(sid)).status).toBe(502);
    await setLlmMode({ mode: "echo" });
    const retried = await proxyTurn(sid);
    expect(retried.status, retried.text).toBe(200);
    expect((await readSession(sid)).window.map((m) => [m.role, m.content])).toEqual([
      ["user", question],
      ["assistant", question],
    ]);
  });
});
