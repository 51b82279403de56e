import { afterEach, describe, expect, it } from "vitest";
import { call, uniqueId, type CallResult } from "../support/helpers.ts";
import { transcript, turnRequests } from "../support/chat.ts";
import { chatRequests, clearLlmRequests, resetLlm, setLlmMode } from "../support/llm.ts";
import { sessionPath } from "../support/sessions.ts";

/**
 * MAX_MESSAGE_CHARS bounds what clients send, never what the model answers: a 40,000-character
 * reply (over the 32,000 default) is answered and stored whole on every chat path, and a retry of
 * the turn answers from storage without calling the model again.
 */

const LONG = Array.from({ length: 4000 }, (_, i) => `word${String(i).padStart(5, "0")}`)
  .join(" ")
  .slice(0, 40_000);

afterEach(async () => {
  await resetLlm();
});

interface Path {
  name: string;
  send(sid: string, key: string): Promise<CallResult<unknown>>;
}

const paths: Path[] = [
  {
    name: "/chat",
    send: (sid, key) =>
      call("POST", `${sessionPath(sid)}/chat`, { body: { message: "write a long essay" }, headers: { "idempotency-key": key } }),
  },
  {
    name: "/chat streamed",
    send: (sid, key) =>
      call("POST", `${sessionPath(sid)}/chat`, {
        body: { message: "write a long essay", stream: true },
        headers: { "idempotency-key": key },
      }),
  },
  {
    name: "the proxy",
    send: (sid, key) =>
      call("POST", "/v1/chat/completions", {
        body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "write a long essay" }] },
        headers: { "x-memory-session": sid, "idempotency-key": key },
      }),
  },
  {
    name: "the proxy streamed",
    send: (sid, key) =>
      call("POST", "/v1/chat/completions", {
        body: { model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "write a long essay" }] },
        headers: { "x-memory-session": sid, "idempotency-key": key },
      }),
  },
];

describe("a reply longer than MAX_MESSAGE_CHARS", () => {
  for (const path of paths) {
    it(`${path.name}: is answered and stored whole; the retry answers from storage`, async () => {
      const sid = uniqueId("long");
      const key = uniqueId("turn");
      await setLlmMode({ mode: "fixed", text: LONG, chunkDelayMs: 0, count: 1 });
      await clearLlmRequests();
      const first = await path.send(sid, key);
      expect(first.status, first.text.slice(0, 300)).toBe(200);
      const stored = await transcript(sid);
      expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
      expect(stored[1]?.content).toBe(LONG);
      expect(turnRequests(await chatRequests(), "write a long essay")).toHaveLength(1);

      const retry = await path.send(sid, key);
      expect(retry.status, retry.text.slice(0, 300)).toBe(200);
      expect(retry.text.replace(/\\n|data: |[\r\n]/g, "")).toContain(LONG.slice(-200));
      expect(turnRequests(await chatRequests(), "write a long essay")).toHaveLength(1);
      expect((await transcript(sid)).map((m) => m.role)).toEqual(["user", "assistant"]);
    });
  }

  it("a client's own message over the limit is still refused", async () => {
    const sid = uniqueId("long-client");
    const res = await call("POST", `${sessionPath(sid)}/messages`, { body: { messages: [{ role: "assistant", content: LONG }] } });
    expect(res.status).toBe(413);
  });
});
