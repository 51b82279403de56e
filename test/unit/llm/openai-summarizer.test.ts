import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Summary } from "../../../src/memory/model.ts";
import type { StoredMessage } from "../../../src/memory/model.ts";
import { LlmError } from "../../../src/memory/errors.ts";
import { createOpenAIClient } from "../../../src/llm/openai-client.ts";
import { OpenAISummarizer } from "../../../src/llm/openai-summarizer.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.ts";

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.setMode({ mode: "summary" });
  fake.clearRequests();
});

const msg = (role: StoredMessage["role"], content: string, i = 0): StoredMessage => ({
  id: `m${i}`,
  role,
  content,
  tokens: 5,
  importance: 0.5,
  ts: i,
});
const previous: Summary = {
  text: "用户叫小明，住在上海。",
  tokens: 10,
  version: 1,
  covered: 4,
  method: "llm",
  updatedAt: 0,
  lastRatio: 0.5,
};
const summarizer = (): OpenAISummarizer =>
  new OpenAISummarizer(createOpenAIClient({ apiKey: "k", baseURL: fake.baseURL, maxRetries: 0 }), { model: "sum-model" });

describe("OpenAISummarizer", () => {
  it("merges the previous summary and the messages and returns method llm", async () => {
    const r = await summarizer().summarize({
      previous,
      messages: [msg("user", "I prefer tea over coffee", 1), msg("assistant", "Noted: tea it is", 2)],
      maxTokens: 200,
    });
    expect(r.method).toBe("llm");
    expect(r.text).toContain("用户叫小明");
    expect(r.text).toContain("I prefer tea");
    expect(r.text).toContain("Noted: tea");
  });

  it("sends max_tokens with headroom, temperature 0.2 and the summary instructions", async () => {
    await summarizer().summarize({ previous: null, messages: [msg("user", "we decided on plan B", 1)], maxTokens: 120 });
    const body = fake.requests()[0]?.body as {
      model: string;
      max_tokens: number;
      temperature: number;
      messages: { role: string; content: string }[];
    };
    expect([body.model, body.max_tokens, body.temperature]).toEqual(["sum-model", 150, 0.2]);
    const [system, user] = body.messages;
    expect(system?.content).toMatch(/preferences/);
    expect(system?.content).toMatch(/language/);
    expect(system?.content).toMatch(/120 tokens/);
    expect(user?.content).toContain("we decided on plan B");
  });

  it("honours a different headroom", async () => {
    const s = new OpenAISummarizer(createOpenAIClient({ apiKey: "k", baseURL: fake.baseURL }), { model: "m", headroom: 0 });
    await s.summarize({ previous: null, messages: [msg("user", "x")], maxTokens: 77 });
    expect((fake.requests()[0]!.body as { max_tokens: number }).max_tokens).toBe(77);
  });

  it("rejects a whitespace-only answer as bad_output", async () => {
    fake.setMode({ mode: "fixed", text: "  \n " });
    const err = await summarizer()
      .summarize({ previous, messages: [msg("user", "x")], maxTokens: 50 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).kind).toBe("bad_output");
  });

  it("passes upstream failures on as LlmError", async () => {
    fake.setMode({ mode: "error", status: 500 });
    const err = await summarizer()
      .summarize({ previous, messages: [msg("user", "x")], maxTokens: 50 })
      .catch((e: unknown) => e);
    expect((err as LlmError).kind).toBe("upstream");
  });

  it("uses an injected prompt builder", async () => {
    const s = new OpenAISummarizer(createOpenAIClient({ apiKey: "k", baseURL: fake.baseURL }), {
      model: "m",
      temperature: 0,
      buildPrompt: (req) => [{ role: "user", content: `custom ${req.messages.length}` }],
    });
    await s.summarize({ previous: null, messages: [msg("user", "a")], maxTokens: 10 });
    const body = fake.requests()[0]?.body as { temperature: number; messages: unknown[] };
    expect(body.temperature).toBe(0);
    expect(body.messages).toEqual([{ role: "user", content: "custom 1" }]);
  });
});
