import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Fact, StoredMessage } from "../../src/memory/types.ts";
import { LlmError } from "../../src/llm/errors.ts";
import { createOpenAIClient } from "../../src/llm/openai-client.ts";
import { renderTranscript } from "../../src/memory/summary-prompt.ts";
import { OpenAIFactExtractor, parseOperations } from "../../src/llm/openai-extractor.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.ts";

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => fake.clearRequests());

const msg = (role: StoredMessage["role"], content: string): StoredMessage => ({ id: "m1", role, content, tokens: 5, importance: 0.5, ts: 0 });
const fact = (id: string, text: string): Fact => ({
  id, text, type: "preference", importance: 0.7, createdAt: 0, updatedAt: 0, lastAccessedAt: 0, accessCount: 0, version: 1,
});
const existing = [fact("f-blue", "用户喜欢蓝色"), fact("f-tea", "The user drinks tea")];
const extractor = (): OpenAIFactExtractor => new OpenAIFactExtractor(createOpenAIClient({ apiKey: "k", baseURL: fake.baseURL, maxRetries: 0 }), { model: "x-model" });
const answer = (json: unknown): void => fake.setMode({ mode: "fixed", text: typeof json === "string" ? json : JSON.stringify(json) });

async function badOutput(p: Promise<unknown>): Promise<void> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(LlmError);
  expect((err as LlmError).kind).toBe("bad_output");
}

describe("OpenAIFactExtractor", () => {
  it("returns validated operations and asks for JSON with the existing facts", async () => {
    answer({
      operations: [
        { op: "add", text: "用户叫小明", type: "fact", importance: 0.9, reason: "extra keys are dropped" },
        { op: "update", id: "f-blue", text: "用户现在喜欢绿色", type: "preference", importance: 0.7 },
        { op: "skip", text: "small talk" },
      ],
    });
    const ops = await extractor().extract({ messages: [msg("user", "我叫小明，现在喜欢绿色")], existing });
    expect(ops).toEqual([
      { op: "add", text: "用户叫小明", type: "fact", importance: 0.9 },
      { op: "update", id: "f-blue", text: "用户现在喜欢绿色", type: "preference", importance: 0.7 },
      { op: "skip", text: "small talk" },
    ]);
    const body = fake.requests()[0]?.body as { model: string; response_format: unknown; temperature: number; messages: { content: string }[] };
    expect(body.response_format).toEqual({ type: "json_object" });
    expect([body.model, body.temperature]).toEqual(["x-model", 0]);
    const prompt = body.messages.map((m) => m.content).join("\n");
    expect(prompt).toContain("JSON");
    expect(prompt).toContain("id=f-blue (preference) 用户喜欢蓝色");
    expect(prompt).toContain("user: 我叫小明，现在喜欢绿色");
  });

  it("rejects garbage", async () => {
    fake.setMode({ mode: "garbage" });
    await badOutput(extractor().extract({ messages: [msg("user", "hi")], existing }));
  });

  it("rejects an update of an id that was not offered", async () => {
    answer({ operations: [{ op: "add", text: "ok", type: "fact", importance: 0.5 }, { op: "update", id: "f-made-up", text: "x", type: "fact", importance: 0.5 }] });
    await badOutput(extractor().extract({ messages: [msg("user", "hi")], existing }));
  });

  it("rejects an empty answer", async () => {
    fake.setMode({ mode: "empty" });
    await badOutput(extractor().extract({ messages: [msg("user", "hi")], existing }));
  });

  it("passes an upstream failure on", async () => {
    fake.setMode({ mode: "error", status: 429 });
    const err = await extractor().extract({ messages: [msg("user", "hi")], existing }).catch((e: unknown) => e);
    expect([(err as LlmError).kind, (err as LlmError).retryable]).toEqual(["upstream", true]);
  });
});

describe("parseOperations", () => {
  const bad: [string, unknown][] = [
    ["a top-level array", [{ op: "add", text: "x", type: "fact", importance: 0.5 }]],
    ["missing operations", { ops: [] }],
    ["an unknown op", { operations: [{ op: "delete", id: "f-blue" }] }],
    ["an unknown type", { operations: [{ op: "add", text: "x", type: "opinion", importance: 0.5 }] }],
    ["importance above 1", { operations: [{ op: "add", text: "x", type: "fact", importance: 7 }] }],
    ["importance as a string", { operations: [{ op: "add", text: "x", type: "fact", importance: "0.5" }] }],
    ["an empty text", { operations: [{ op: "add", text: "  ", type: "fact", importance: 0.5 }] }],
    ["an update without id", { operations: [{ op: "update", text: "x", type: "fact", importance: 0.5 }] }],
  ];
  for (const [name, json] of bad) {
    it(`rejects ${name}`, () => {
      expect(() => parseOperations(JSON.stringify(json), existing)).toThrow(LlmError);
    });
  }

  it("rejects more operations than allowed", () => {
    const ops = Array.from({ length: 3 }, (_, i) => ({ op: "skip", text: String(i) }));
    expect(() => parseOperations(JSON.stringify({ operations: ops }), existing, { maxOperations: 2 })).toThrow(LlmError);
  });

  it("accepts JSON in a Markdown fence, trims texts and defaults a skip's text", () => {
    const content = '```json\n{"operations":[{"op":"add","text":"  likes jazz ","type":"preference","importance":0.6},{"op":"skip"}]}\n```';
    expect(parseOperations(content, existing)).toEqual([
      { op: "add", text: "likes jazz", type: "preference", importance: 0.6 },
      { op: "skip", text: "" },
    ]);
  });

  it("keeps only the latest of two updates of one fact", () => {
    const content = JSON.stringify({
      operations: [
        { op: "update", id: "f-tea", text: "drinks green tea", type: "preference", importance: 0.6 },
        { op: "add", text: "new", type: "context", importance: 0.5 },
        { op: "update", id: "f-tea", text: "drinks coffee now", type: "preference", importance: 0.7 },
      ],
    });
    expect(parseOperations(content, existing)).toEqual([
      { op: "update", id: "f-tea", text: "drinks coffee now", type: "preference", importance: 0.7 },
      { op: "add", text: "new", type: "context", importance: 0.5 },
    ]);
  });

  it("accepts an empty list", () => {
    expect(parseOperations('{"operations": []}', [])).toEqual([]);
  });
});

describe("renderTranscript", () => {
  it("renders tool calls and results and clips huge messages", () => {
    const call = { id: "c1", type: "function" as const, function: { name: "weather", arguments: '{"city":"Paris"}' } };
    const text = renderTranscript([
      { ...msg("assistant", ""), tool_calls: [call] },
      { ...msg("tool", "18°C"), tool_call_id: "c1" },
      msg("user", "x".repeat(10_000)),
    ]);
    const lines = text.split("\n");
    expect(lines[0]).toBe('assistant: [calls weather({"city":"Paris"})]');
    expect(lines[1]).toBe("tool result: 18°C");
    expect(lines[2]!.length).toBeLessThan(4100);
  });
});
