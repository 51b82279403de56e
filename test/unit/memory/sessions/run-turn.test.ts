import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import { MemoryError } from "../../../../src/memory/errors.ts";
import type { ChatModel, PassThroughRequest, TokenCounter } from "../../../../src/memory/ports/llm.ts";
import { runChatTurn, runProxiedTurn, type TurnRun } from "../../../../src/memory/sessions/run-turn.ts";
import { testDeps, type TestDeps } from "../../../support/memory-deps.ts";
import { InMemoryUserStore } from "../../../support/fakes/facts.ts";
import { InMemorySessionStore } from "../../../support/fakes/sessions.ts";

/** Answers "ok" to every request, and records what it was asked and whether it was admitted by then. */
function answeringModel(admittedSoFar: () => boolean): ChatModel & { asked: { request: PassThroughRequest; admitted: boolean }[] } {
  const asked: { request: PassThroughRequest; admitted: boolean }[] = [];
  const reply = { content: "ok", finishReason: "stop", model: "m" };
  return {
    asked,
    complete: () => Promise.reject(new Error("a turn passes its request through")),
    stream: () => {
      throw new Error("a turn passes its request through");
    },
    completeRaw: async (request) => {
      asked.push({ request, admitted: admittedSoFar() });
      return { body: { id: "c1" }, reply: { ...reply, usage: null } };
    },
    streamRaw: (request) => {
      asked.push({ request, admitted: admittedSoFar() });
      return { async *[Symbol.asyncIterator]() {}, reply: () => ({ ...reply, usage: null }) };
    },
    models: () => Promise.resolve({ data: [] }),
  };
}

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

let sessions: InMemorySessionStore;
let chat: ReturnType<typeof answeringModel>;
let deps: TestDeps;
let admitted: boolean;
const run: TurnRun = {
  admitted: async () => {
    admitted = true;
  },
};

beforeEach(() => {
  admitted = false;
  sessions = new InMemorySessionStore();
  chat = answeringModel(() => admitted);
  deps = testDeps({ counter, sessions, users: new InMemoryUserStore(), facts: null, chat });
});

const window = async () => (await sessions.read({ tenant: deps.tenant, sessionId: "s1" })).window.map((m) => [m.role, m.content]);
const input = { sessionId: "s1", userId: "u1", messages: [{ role: "user" as const, content: "Hi" }], query: "Hi", fields: {} };

describe("runChatTurn", () => {
  it("calls the model only once admitted, and stores its answer after the message", async () => {
    const result = await runChatTurn(deps, input, run);
    expect(result.kind === "answer" && result.answer.reply.content).toBe("ok");
    expect(chat.asked.map((a) => a.admitted)).toEqual([true]);
    expect(await window()).toEqual([
      ["user", "Hi"],
      ["assistant", "ok"],
    ]);
  });

  it("a refused admission calls no model and leaves the message stored", async () => {
    const refusal = new Error("rate limited");
    const refused = await runChatTurn(deps, input, { admitted: () => Promise.reject(refusal) }).catch((err: unknown) => err);
    expect(refused).toBe(refusal);
    expect(chat.asked).toEqual([]);
    expect(await window()).toEqual([["user", "Hi"]]);
  });

  it("streamed, answers with the started turn; its stream stores the reply", async () => {
    const result = await runChatTurn(deps, input, { ...run, stream: true });
    if (result.kind !== "stream") throw new Error("expected the started turn");
    expect(chat.asked).toEqual([]);
    expect((await result.turn.stream(() => undefined)).reply.content).toBe("ok");
    expect(await window()).toEqual([
      ["user", "Hi"],
      ["assistant", "ok"],
    ]);
  });
});

describe("runProxiedTurn", () => {
  const request = (messages: { role: "user" | "assistant" | "system"; content: string }[]) => ({
    sessionId: "s1",
    userId: "u1",
    request: { body: { model: "m", messages, temperature: 0.5 }, messages },
  });

  it("stores the prompt and the last user message, and passes the client's fields to the model", async () => {
    const conversation = request([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hello" },
      { role: "assistant", content: "Hi!" },
      { role: "user", content: "Where do I live?" },
    ]);
    await runProxiedTurn(deps, conversation, run);
    expect(chat.asked[0]?.request.fields).toEqual({ model: "m", temperature: 0.5 });
    const stored = await sessions.read({ tenant: deps.tenant, sessionId: "s1" });
    expect(stored.system.map((m) => m.content)).toEqual(["Be brief."]);
    expect(stored.window.map((m) => [m.role, m.content])).toEqual([
      ["user", "Where do I live?"],
      ["assistant", "ok"],
    ]);
  });

  it("refuses a conversation that does not end with a user message, before anything is stored", async () => {
    const refused = await runProxiedTurn(deps, request([{ role: "assistant", content: "Hi!" }]), run).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(MemoryError);
    expect((refused as MemoryError).kind).toBe("invalid");
    expect(sessions.totalCalls()).toBe(0);
    expect(chat.asked).toEqual([]);
  });
});
