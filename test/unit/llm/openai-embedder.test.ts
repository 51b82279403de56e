import type OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LlmError } from "../../../src/memory/errors.ts";
import { createOpenAIClient } from "../../../src/llm/openai-client.ts";
import { MAX_EMBEDDING_BATCH, embedTexts } from "../../../src/llm/openai-embedder.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.ts";

let fake: FakeOpenAI;
let client: OpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  client = createOpenAIClient({ apiKey: "k", baseURL: fake.baseURL, maxRetries: 0 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.setMode({ mode: "echo" });
  fake.clearRequests();
});

const cosine = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe("embedTexts", () => {
  it("returns one unit vector per text, in order, with the requested dimensions", async () => {
    const texts = ["I like green tea", "I like tea", "the stock market fell"];
    const v = await embedTexts(client, "text-embedding-3-small", texts, 64);
    expect(v.map((x) => x.length)).toEqual([64, 64, 64]);
    for (const x of v) expect(Math.hypot(...x)).toBeCloseTo(1, 5);
    expect(cosine(v[0]!, v[1]!)).toBeGreaterThan(cosine(v[0]!, v[2]!));
    expect(fake.requests()[0]?.body).toEqual({ model: "text-embedding-3-small", input: texts, encoding_format: "float", dimensions: 64 });
  });

  it("is deterministic and uses the model's size by default", async () => {
    const [a] = await embedTexts(client, "m", ["same text"]);
    const [b] = await embedTexts(client, "m", ["same text"]);
    expect(a).toHaveLength(1536);
    expect(a).toEqual(b);
  });

  it("splits more than 2048 inputs into batches", async () => {
    const texts = Array.from({ length: MAX_EMBEDDING_BATCH + 5 }, (_, i) => `text ${i}`);
    const v = await embedTexts(client, "m", texts, 8);
    expect(v).toHaveLength(texts.length);
    expect(fake.requests().map((r) => (r.body as { input: string[] }).input.length)).toEqual([2048, 5]);
    const [last] = await embedTexts(client, "m", [texts[texts.length - 1]!], 8);
    expect(v[v.length - 1]).toEqual(last);
  });

  it("makes no request for no texts", async () => {
    expect(await embedTexts(client, "m", [])).toEqual([]);
    expect(fake.requests()).toHaveLength(0);
  });

  it("maps failures to LlmError", async () => {
    fake.setMode({ mode: "error", status: 500 });
    const err = await embedTexts(client, "m", ["x"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).kind).toBe("upstream");
  });

  it("rejects an answer with the wrong number of vectors", async () => {
    const short = createOpenAIClient({
      apiKey: "k",
      baseURL: fake.baseURL,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        const body = (await res.json()) as { data: unknown[] };
        return Response.json({ ...body, data: body.data.slice(1) });
      },
    });
    const err = await embedTexts(short, "m", ["a", "b"]).catch((e: unknown) => e);
    expect((err as LlmError).kind).toBe("bad_output");
  });
});
