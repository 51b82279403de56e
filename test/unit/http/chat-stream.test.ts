import { describe, expect, it } from "vitest";
import { streamTurn, turnHeaders, type StreamFormat } from "../../../src/http/chat-stream.ts";
import { LlmError } from "../../../src/memory/errors.ts";
import type { PassThroughChunk } from "../../../src/memory/ports/llm.ts";
import type { TurnOutcome } from "../../../src/memory/model.ts";
import type { ChatTurn, TurnMemory } from "../../../src/memory/sessions/index.ts";
import { testHttp } from "../../support/http-app.ts";

const memory: TurnMemory = {
  sessionId: "s1",
  recalled: [
    { id: "f1", text: "Ada sails", type: "fact", score: 0.9 },
    { id: "f2", text: "Ada rows", type: "fact", score: 0.5 },
  ],
  summaryVersion: 3,
  contextTokens: { system: 1, summary: 2, facts: 3, window: 4, total: 10 },
  compressionDue: false,
};
const reply: TurnOutcome = { id: "r1", content: "Hi Ada", finishReason: "stop", model: "m" };

/** Each event as a line, so a test reads the stream's order. */
const format: StreamFormat = {
  chunk: (c) => (c.text === "" ? "" : `chunk:${c.text}\n`),
  replay: (r) => `replay:${r.content}\n`,
  done: (r) => `done:${r.reply.content}\n`,
  error: (e) => `error:${e.code}\n`,
};

/**
 * The parts of a chat turn `streamTurn` uses: its memory, its recorded reply and its stream. A
 * real turn needs the whole memory stack (see test/unit/memory/sessions/chat-turn.test.ts).
 */
const fakeTurn = (stream: (onChunk: (chunk: PassThroughChunk) => void) => Promise<unknown>, replayed: TurnOutcome | null = null) =>
  ({ memory, replayed, stream }) as unknown as ChatTurn;

const chunk = (text: string): PassThroughChunk => ({ chunk: {}, text });

async function streamed(turn: ChatTurn) {
  const http = testHttp();
  http.app.post("/chat", (c) => streamTurn(c, turn, format));
  const res = await http.app.request("/chat", { method: "POST" });
  return { res, body: await res.text(), http };
}

describe("streaming a chat turn", () => {
  it("turnHeaders describe what memory injected", () => {
    expect(turnHeaders(memory, false)).toEqual({
      "x-memory-session": "s1",
      "x-memory-recalled": "f1;score=0.9, f2;score=0.5",
      "x-memory-summary-version": "3",
      "x-memory-context-tokens": "10",
    });
    const none = turnHeaders({ ...memory, recalled: [], summaryVersion: null }, true);
    expect(none).toMatchObject({ "x-memory-recalled": "", "x-memory-summary-version": "none", "idempotent-replayed": "true" });
  });

  it("sends the chunks as they come, skipping empty ones, then the end", async () => {
    const turn = fakeTurn(async (onChunk) => {
      for (const text of ["Hi", "", " Ada"]) onChunk(chunk(text));
      return { reply, replayed: false, memory };
    });
    const { res, body, http } = await streamed(turn);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("x-memory-session")).toBe("s1");
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(body).toBe("chunk:Hi\nchunk: Ada\ndone:Hi Ada\n");
    // the turn is handed to the runtime, so it finishes even when the client leaves
    expect(http.background).toHaveLength(1);
  });

  it("a retried turn first replays the recorded reply", async () => {
    const turn = fakeTurn(async () => ({ reply, replayed: true, memory }), reply);
    const { res, body } = await streamed(turn);
    expect(res.headers.get("idempotent-replayed")).toBe("true");
    expect(body).toBe("replay:Hi Ada\ndone:Hi Ada\n");
  });

  it("a failing model ends the stream with its error, not logged as the service's own failure", async () => {
    const turn = fakeTurn(async (onChunk) => {
      onChunk(chunk("Hi"));
      throw new LlmError("timeout", "the model timed out");
    });
    const { body, http } = await streamed(turn);
    expect(body).toMatch(/^chunk:Hi\nerror:llm_\w+\n$/);
    expect(http.errors).toEqual([]);
  });

  it("an unexpected failure ends the stream with an internal error and is logged", async () => {
    const { body, http } = await streamed(fakeTurn(() => Promise.reject(new Error("boom"))));
    expect(body).toBe("error:internal\n");
    expect(http.errors).toEqual([{ message: "streamed turn failed", fields: { session: "s1", error: "Error: boom" } }]);
  });
});
