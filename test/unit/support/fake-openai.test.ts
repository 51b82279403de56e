import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../../support/fake-openai.ts";
import { fakeSummary } from "../../support/fake-openai-modes.ts";

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(async () => {
  await fetch(`${fake.url}/__control/reset`, { method: "POST" });
});

const post = (path: string, body: unknown): Promise<Response> =>
  fetch(`${fake.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const chat = async (content: string, extra: Record<string, unknown> = {}): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await post("/v1/chat/completions", { model: "m", messages: [{ role: "user", content }], ...extra });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const contentOf = (body: Record<string, unknown>): unknown => (body.choices as { message: { content: string } }[])[0]?.message.content;

describe("fake OpenAI server", () => {
  it("is scripted over HTTP: a mode with a count, then the previous mode again", async () => {
    expect((await post("/__control/mode", { mode: "fixed", text: "FIXED" })).status).toBe(200);
    expect((await post("/v1/__control/mode", { mode: "error", status: 429, count: 2 })).status).toBe(200);
    expect((await chat("a")).status).toBe(429);
    expect((await chat("b")).status).toBe(429);
    const third = await chat("c");
    expect([third.status, contentOf(third.body)]).toEqual([200, "FIXED"]);
    expect((await post("/__control/mode", { mode: "nonsense" })).status).toBe(400);
  });

  it("records request bodies until they are cleared", async () => {
    await chat("remember me");
    const recorded = (await (await fetch(`${fake.url}/__control/requests`)).json()) as { path: string; body: { messages: unknown[] } }[];
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.path).toBe("/chat/completions");
    expect(recorded[0]?.body.messages).toEqual([{ role: "user", content: "remember me" }]);
    expect(fake.requests()).toHaveLength(1);
    await fetch(`${fake.url}/__control/requests`, { method: "DELETE" });
    expect(fake.requests()).toHaveLength(0);
  });

  it("answers in the documented shape and honours max_tokens", async () => {
    const { body } = await chat("one two three four five six seven eight nine ten", { max_tokens: 3 });
    expect(body).toMatchObject({ object: "chat.completion", model: "m", choices: [{ index: 0, finish_reason: "length" }] });
    // Four characters per token: 3 tokens are 12 characters.
    expect(contentOf(body)).toBe("one two thre");
    expect(body.usage).toMatchObject({ completion_tokens: 3 });
  });

  it("summary mode keeps the first words of each line and earlier fake summaries", () => {
    const s = fakeSummary([
      { role: "system", text: "ignored instructions" },
      {
        role: "user",
        text: "Current summary:\n<summary>\nSummary: 用户叫小明; likes tea\n</summary>\nuser: I moved to Paris last year\n(none yet)",
      },
    ]);
    expect(s).toBe("Summary: 用户叫小明; likes tea; user: I moved to");
  });

  it("streams SSE chunks ending with [DONE] and usage on request", async () => {
    const res = await post("/v1/chat/completions", {
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hi there" }],
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = (await res.text()).split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.slice(6)) as { object: string; choices: { delta: { content?: string } }[]; usage?: unknown });
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("hi there");
    expect(chunks.at(-1)?.usage).toBeDefined();
  });

  it("serves base64 embeddings that the SDK decodes by default", async () => {
    const sdk = new OpenAI({ apiKey: "k", baseURL: fake.baseURL, maxRetries: 0 });
    const res = await sdk.embeddings.create({ model: "m", input: ["hello"], dimensions: 16 });
    const floats = await sdk.embeddings.create({ model: "m", input: ["hello"], dimensions: 16, encoding_format: "float" });
    expect(res.data[0]?.embedding).toHaveLength(16);
    res.data[0]?.embedding.forEach((x, i) => {
      expect(x).toBeCloseTo(floats.data[0]?.embedding[i] ?? NaN, 5);
    });
  });

  it("returns OpenAI-style 404s for unknown paths", async () => {
    const res = await post("/v1/nope", {});
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  });
});
