import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { uniqueId } from "../support/helpers.ts";
import {
  chatRequests,
  parseSse,
  readSession,
  resetLlm,
  setLlmMode,
  streamChatAndLeave,
  streamChatTimed,
  turnRequests,
  type MemoryView,
  type SessionView,
} from "../support/chat.ts";

interface DoneEvent {
  reply: { id: string; role: string; content: string };
  memory: MemoryView;
}

const occurrences = (session: SessionView, id: string) => session.window.filter((m) => m.id === id);

describe("POST /chat with stream: true", () => {
  beforeEach(resetLlm);
  afterEach(resetLlm);

  it("sends the deltas in order as they come, then a done event carrying the stored reply", async () => {
    const gap = 80;
    await setLlmMode({ mode: "echo", chunkDelayMs: gap });
    const sid = uniqueId("stream");
    const message = "one two three four five six seven";

    const { response, chunks, text } = await streamChatTimed(sid, { message, messageId: "s-1", userId: uniqueId("u") });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("x-memory-session")).toBe(sid);

    const events = parseSse(text);
    expect(events.map((e) => e.event).filter((e) => e !== "delta")).toEqual(["done"]);
    expect(events.at(-1)?.event).toBe("done");
    const deltas = events.filter((e) => e.event === "delta").map((e) => (JSON.parse(e.data) as { content: string }).content);
    expect(deltas.length).toBeGreaterThanOrEqual(5);
    expect(deltas.join("")).toBe(message);

    // Streamed, not buffered: the first delta reached the client well before the done event.
    const firstDelta = chunks.find((c) => c.text.includes("event: delta"));
    const done = chunks.find((c) => c.text.includes("event: done"));
    expect(firstDelta && done).toBeTruthy();
    expect((done?.at ?? 0) - (firstDelta?.at ?? 0)).toBeGreaterThanOrEqual((deltas.length - 2) * gap * 0.5);

    const finished = JSON.parse(events.at(-1)?.data ?? "{}") as DoneEvent;
    expect(finished.reply).toEqual({ id: "s-1.reply", role: "assistant", content: message });
    expect(finished.memory.sessionId).toBe(sid);
    expect(String(finished.memory.contextTokens.total)).toBe(response.headers.get("x-memory-context-tokens"));

    const session = await readSession(sid);
    expect(session.window.map((m) => [m.id, m.role, m.content])).toEqual([
      ["s-1", "user", message],
      ["s-1.reply", "assistant", message],
    ]);
  });

  it("stores the complete reply once even when the client leaves after the first chunk", async () => {
    await setLlmMode({ mode: "echo", chunkDelayMs: 40 });
    const sid = uniqueId("stream-leave");
    const message = "a reply long enough to still be streaming when the client goes away";

    const { response, first } = await streamChatAndLeave(sid, { message, messageId: "leave-1", userId: uniqueId("u") });
    expect(response.status).toBe(200);
    expect(first).toContain("event: delta");
    // The client saw only the beginning.
    const seen = parseSse(first)
      .filter((e) => e.event === "delta")
      .map((e) => (JSON.parse(e.data) as { content: string }).content)
      .join("");
    expect(seen.length).toBeLessThan(message.length);

    const session = await readSession(sid);
    expect(occurrences(session, "leave-1").map((m) => m.content)).toEqual([message]);
    expect(occurrences(session, "leave-1.reply").map((m) => m.content)).toEqual([message]);
    expect(session.window).toHaveLength(2);

    // One streamed upstream call, read to its end.
    const calls = turnRequests(await chatRequests(), message);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body.stream).toBe(true);
  });

  it("a streamed turn retried with the same message id stores the user message and the reply once", async () => {
    await setLlmMode({ mode: "echo", chunkDelayMs: 1 });
    const sid = uniqueId("stream-retry");
    const user = uniqueId("u");
    const message = "say it twice";
    await streamChatAndLeave(sid, { message, messageId: "r-1", userId: user });
    const again = await streamChatTimed(sid, { message, messageId: "r-1", userId: user });
    expect(parseSse(again.text).at(-1)?.event).toBe("done");

    const session = await readSession(sid);
    expect(session.window.map((m) => m.id)).toEqual(["r-1", "r-1.reply"]);
  });

  it("the done event of a retried turn carries the reply that is stored", async () => {
    const sid = uniqueId("stream-retry-diff");
    await setLlmMode({ mode: "fixed", text: "first streamed answer", chunkDelayMs: 1 });
    await streamChatTimed(sid, { message: "again please", messageId: "rd-1" });
    await setLlmMode({ mode: "fixed", text: "another streamed answer", chunkDelayMs: 1 });
    const again = await streamChatTimed(sid, { message: "again please", messageId: "rd-1" });

    const done = parseSse(again.text).find((e) => e.event === "done");
    const finished = JSON.parse(done?.data ?? "{}") as DoneEvent;
    const stored = occurrences(await readSession(sid), "rd-1.reply");
    expect(stored).toHaveLength(1);
    expect(finished.reply?.content).toBe(stored[0]?.content);
  });
});
