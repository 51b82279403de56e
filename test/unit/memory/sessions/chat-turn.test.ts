import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import { MemoryError, UpstreamUnavailable } from "../../../../src/memory/errors.ts";
import { factId } from "../../../../src/memory/facts/identity.ts";
import type { Fact, JsonObject, SessionRef, ToolCall } from "../../../../src/memory/model.ts";
import type {
  ChatModel,
  ModelReply,
  PassThroughAnswer,
  PassThroughChunk,
  PassThroughRequest,
  PassThroughStream,
  TokenCounter,
} from "../../../../src/memory/ports/llm.ts";
import { ChatTurn, type TurnInput } from "../../../../src/memory/sessions/chat-turn.ts";
import { toolCallMessageId } from "../../../../src/memory/sessions/turn-ids.ts";
import { testDeps, type TestDeps } from "../../../support/memory-deps.ts";
import { InMemoryFactStore, InMemoryUserStore } from "../../../support/fakes/facts.ts";
import { InMemorySessionStore } from "../../../support/fakes/sessions.ts";

/** A chat model that answers from a script and records what it was asked. */
class ScriptedChat implements ChatModel {
  readonly requests: PassThroughRequest[] = [];
  /** Runs while the model "answers" (between the request and the reply). */
  during: () => Promise<void> = async () => {};

  constructor(public reply: Omit<ModelReply, "usage"> = { content: "Hello back", finishReason: "stop", model: "m-1" }) {}

  async complete(): Promise<never> {
    throw new Error("a turn passes its request through");
  }

  stream(): never {
    throw new Error("a turn passes its request through");
  }

  async completeRaw(request: PassThroughRequest): Promise<PassThroughAnswer> {
    this.requests.push(request);
    await this.during();
    const usage = { promptTokens: 5, completionTokens: 2, totalTokens: 7 };
    return { body: { id: "cmpl-1", choices: [{ message: { content: this.reply.content } }] }, reply: { ...this.reply, usage } };
  }

  streamRaw(request: PassThroughRequest): PassThroughStream {
    this.requests.push(request);
    const reply: ModelReply = { ...this.reply, usage: null };
    const during = () => this.during();
    const words = reply.content.split(/(?<= )/);
    return {
      async *[Symbol.asyncIterator](): AsyncGenerator<PassThroughChunk> {
        for (const text of words) yield { chunk: { choices: [{ delta: { content: text } }] }, text };
        await during();
      },
      reply: () => reply,
    };
  }

  async models(): Promise<JsonObject> {
    return { data: [] };
  }
}

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

const ref: SessionRef = { tenant: "acme", sessionId: "s1" };
const scope = { tenant: "acme", userId: "u1" };
let clock = Date.UTC(2026, 0, 1);
let sessions: InMemorySessionStore;
let users: InMemoryUserStore;
let facts: InMemoryFactStore;
let chat: ScriptedChat;
let deps: TestDeps;

beforeEach(() => {
  clock += 60_000;
  sessions = new InMemorySessionStore(() => clock);
  users = new InMemoryUserStore();
  facts = new InMemoryFactStore();
  chat = new ScriptedChat();
  deps = testDeps({ counter, sessions, users, facts, chat, now: () => clock });
});

const input = (overrides: Partial<TurnInput> = {}): TurnInput => ({
  sessionId: ref.sessionId,
  userId: "u1",
  messages: [{ role: "user", content: "Hi there" }],
  query: "Hi there",
  fields: { model: "m-1", temperature: 0.2 },
  ...overrides,
});

async function seedFact(text: string): Promise<Fact> {
  const fact: Fact = {
    id: await factId(scope, text),
    text,
    type: "preference",
    importance: 0.8,
    createdAt: clock,
    updatedAt: clock,
    lastAccessedAt: clock,
    accessCount: 0,
    version: 1,
  };
  await facts.upsert(scope, [fact]);
  return fact;
}

const stored = async (sessionId = ref.sessionId) => (await sessions.read({ tenant: "acme", sessionId })).window;

describe("ChatTurn.start", () => {
  it("refuses without a configured model, before anything is stored", async () => {
    deps = testDeps({ counter, sessions, users, facts, chat: null, now: () => clock });
    const refusal = await ChatTurn.start(deps, input()).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(UpstreamUnavailable);
    expect((refusal as UpstreamUnavailable).reason).toBe("not_configured");
    expect(sessions.totalCalls()).toBe(0);
  });

  it("stores the new messages before the model call and builds its request from memory", async () => {
    const turn = await ChatTurn.start(
      deps,
      input({
        messages: [
          { role: "system", content: "Be brief." },
          { id: "m1", role: "user", content: "Hi there" },
        ],
      }),
    );
    expect(turn.replayed).toBeNull();
    expect((await stored()).map((m) => [m.id, m.role, m.content])).toEqual([["m1", "user", "Hi there"]]);
    expect((await sessions.read(ref)).system.map((m) => m.content)).toEqual(["Be brief."]);
    expect(chat.requests).toEqual([]);
    expect(turn.memory).toMatchObject({ sessionId: "s1", recalled: [], summaryVersion: null, compressionDue: false });
    expect(turn.memory.degraded).toBeUndefined();
  });

  it("recalls the user's facts into the prompt and reports them, rounded", async () => {
    const fact = await seedFact("My favourite colour is blue");
    const turn = await ChatTurn.start(deps, input({ query: "what is my favourite colour" }));
    expect(turn.memory.recalled.map((r) => r.id)).toEqual([fact.id]);
    const [recalled] = turn.memory.recalled;
    expect(recalled).toMatchObject({ text: fact.text, type: "preference" });
    expect(recalled!.score).toBe(Math.round(recalled!.score * 10_000) / 10_000);
    await turn.complete();
    expect(JSON.stringify(chat.requests[0]!.messages)).toContain("My favourite colour is blue");
  });

  it("reports a recall it could not make as degraded and still answers", async () => {
    await seedFact("My favourite colour is blue");
    facts.failNext("query");
    const turn = await ChatTurn.start(deps, input({ query: "what is my favourite colour" }));
    expect(turn.memory.recalled).toEqual([]);
    expect(turn.memory.degraded?.length).toBeGreaterThan(0);
    expect((await turn.complete()).reply.content).toBe("Hello back");
  });
});

describe("ChatTurn.complete", () => {
  it("passes the client's fields through, stores the reply under the user message's id and returns the body", async () => {
    const turn = await ChatTurn.start(deps, input({ messages: [{ id: "m1", role: "user", content: "Hi there" }] }));
    const answer = await turn.complete();
    expect(chat.requests).toHaveLength(1);
    expect(chat.requests[0]!.fields).toEqual({ model: "m-1", temperature: 0.2 });
    expect(chat.requests[0]!.messages.at(-1)).toMatchObject({ role: "user", content: "Hi there" });
    expect(answer).toMatchObject({
      reply: { id: "m1.reply", content: "Hello back", finishReason: "stop", model: "m-1" },
      body: { id: "cmpl-1" },
      usage: { totalTokens: 7 },
      replayed: false,
    });
    expect((await stored()).map((m) => [m.id, m.role, m.content])).toEqual([
      ["m1", "user", "Hi there"],
      ["m1.reply", "assistant", "Hello back"],
    ]);
  });

  it("answers a retry with the same key from storage without calling the model again", async () => {
    const first = await (await ChatTurn.start(deps, input({ key: "turn-1" }))).complete();
    chat.reply = { content: "a different answer", finishReason: "stop", model: "m-1" };
    const retry = await ChatTurn.start(deps, input({ key: "turn-1" }));
    expect(retry.replayed).toEqual(first.reply);
    const again = await retry.complete();
    expect(again).toMatchObject({ reply: first.reply, body: null, usage: null, replayed: true });
    expect(chat.requests).toHaveLength(1);
    expect((await stored()).map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("a different key is a new turn", async () => {
    await (await ChatTurn.start(deps, input({ key: "turn-1" }))).complete();
    const next = await ChatTurn.start(deps, input({ key: "turn-2" }));
    expect(next.replayed).toBeNull();
    expect((await next.complete()).replayed).toBe(false);
    expect(chat.requests).toHaveLength(2);
    expect((await stored()).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("stores a tool-calling reply under its calls' id, with the calls", async () => {
    const calls: ToolCall[] = [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }];
    chat.reply = { content: "", tool_calls: calls, finishReason: "tool_calls", model: "m-1" };
    const answer = await (await ChatTurn.start(deps, input())).complete();
    const id = await toolCallMessageId(calls);
    expect(answer.reply).toEqual({ id, content: "", tool_calls: calls, finishReason: "tool_calls", model: "m-1" });
    expect((await stored()).at(-1)).toMatchObject({ id, role: "assistant", tool_calls: calls });
  });

  it("keeps the reply out when the user is erased while the model answers", async () => {
    chat.during = async () => {
      clock += 1;
      await users.markErased(scope, clock);
    };
    const turn = await ChatTurn.start(deps, input({ messages: [{ id: "m1", role: "user", content: "Hi there" }] }));
    const refusal = await turn.complete().catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(MemoryError);
    expect((refusal as MemoryError).kind).toBe("conflict");
    expect((await stored()).map((m) => m.id)).not.toContain("m1.reply");
  });

  it("acts for the session's stored owner when the turn names no user", async () => {
    await (await ChatTurn.start(deps, input({ key: "owned" }))).complete();
    const fact = await seedFact("My favourite colour is blue");
    const turn = await ChatTurn.start(deps, input({ userId: undefined, query: "what is my favourite colour" }));
    expect(turn.memory.recalled.map((r) => r.id)).toEqual([fact.id]);
    await turn.complete();
    expect(await sessions.owner(ref)).toBe("u1");
    // the reply records what it recalled for the owner
    expect(await users.recallCounts(scope, 10)).toEqual([expect.objectContaining({ id: fact.id })]);
  });
});

describe("ChatTurn.stream", () => {
  it("forwards every chunk, then stores the assembled reply", async () => {
    const turn = await ChatTurn.start(deps, input({ messages: [{ id: "m1", role: "user", content: "Hi there" }] }));
    const seen: string[] = [];
    const done = await turn.stream((c) => seen.push(c.text));
    expect(seen.join("")).toBe("Hello back");
    expect(done).toMatchObject({ reply: { id: "m1.reply", content: "Hello back" }, replayed: false });
    expect((await stored()).map((m) => m.id)).toEqual(["m1", "m1.reply"]);
  });

  it("streams nothing on a retry and resolves with the recorded reply", async () => {
    const first = await (await ChatTurn.start(deps, input({ key: "k" }))).complete();
    const seen: PassThroughChunk[] = [];
    const retry = await (await ChatTurn.start(deps, input({ key: "k" }))).stream((c) => seen.push(c));
    expect(seen).toEqual([]);
    expect(retry).toMatchObject({ reply: first.reply, replayed: true });
    expect(chat.requests).toHaveLength(1);
  });
});
