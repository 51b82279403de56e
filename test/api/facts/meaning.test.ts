/** Recall by meaning on the dev stack's index (sentence model for English, hashing for CJK, BM25): what a user asks in other words. */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { uniqueId } from "../support/helpers.ts";
import { addFact, contextFor, FACTS_LABEL } from "../support/facts.ts";

// Provided by test/support/global-setup.ts (declared there for the node project's type check).
declare module "vitest" {
  // biome-ignore lint/suspicious/noExportsInTest: a module augmentation, not an export of the test
  export interface ProvidedContext {
    sentenceVectorUrl: string;
    upstashToken: string;
  }
}

// The Worker's own settings for this file: the same hybrid retrieval, on the sentence-model index.
const env = { UPSTASH_VECTOR_REST_URL: inject("sentenceVectorUrl"), VECTOR_INDEX: "hybrid" };
const isFactsMessage = (m: { role: string; content: string }) => m.role === "system" && m.content.startsWith(FACTS_LABEL);

async function remember(userId: string, texts: readonly string[]): Promise<void> {
  for (const text of texts) await addFact(userId, { text, type: "fact" }, { env });
}

const ask = (userId: string, query: string) => contextFor(uniqueId("meaning-s"), { query, userId }, { env });

describe("recall by meaning (sentence-model index)", () => {
  // The emulator loads its model on first use (the dev stack preloads it at start): load it here,
  // outside the Worker's upstream timeout.
  beforeAll(async () => {
    const res = await fetch(`${inject("sentenceVectorUrl")}/query-data/warm-up`, {
      method: "POST",
      headers: { authorization: `Bearer ${inject("upstashToken")}` },
      body: JSON.stringify({ data: "warm up", topK: 1 }),
    });
    expect(res.status).toBe(200);
  }, 120_000);

  it("a question sharing no word with its memory recalls it, and injects it into the context", async () => {
    const uid = uniqueId("para");
    await remember(uid, [
      "I work as a nurse in Porto.",
      "I grew up in Galway.",
      "I am allergic to peanuts.",
      "My brother lives in Toronto.",
    ]);
    for (const [query, expected] of [
      ["What do I do for a living?", "I work as a nurse in Porto."],
      ["Where did I grow up?", "I grew up in Galway."],
      ["Which food allergy do I have?", "I am allergic to peanuts."],
    ] as const) {
      const ctx = await ask(uid, query);
      // Recalled into the context (k 3). Not always first: BM25 stems "living" and "lives" alike, so
      // "My brother lives in Toronto" can edge ahead of the job for "What do I do for a living?".
      expect(
        ctx.recalled.map((r) => r.text),
        query,
      ).toContain(expected);
      expect(ctx.messages.filter(isFactsMessage)[0]?.content, query).toContain(expected);
    }
  }, 120_000);

  it("an unrelated request injects nothing", async () => {
    const uid = uniqueId("unrel");
    await remember(uid, ["My brother lives in Toronto.", "I work as a nurse in Porto."]);
    for (const query of ["Give me a haiku about autumn leaves.", "How do I undo the last git commit?"]) {
      const ctx = await ask(uid, query);
      expect(ctx.recalled, query).toEqual([]);
      expect(ctx.messages.filter(isFactsMessage), query).toEqual([]);
    }
  }, 120_000);

  it("Chinese: a question about a Chinese memory recalls it; an unrelated one recalls nothing; an English paraphrase does not match Chinese", async () => {
    const uid = uniqueId("zh");
    await remember(uid, ["我叫小明，喜欢蓝色", "我住在上海浦东"]);
    expect((await ask(uid, "用户叫什么名字")).recalled.map((r) => r.text)).toEqual(["我叫小明，喜欢蓝色"]);
    expect((await ask(uid, "我住在哪里")).recalled[0]?.text).toBe("我住在上海浦东");
    for (const query of ["推荐一部好看的电影", "What is the weather in Paris today?"]) {
      expect((await ask(uid, query)).recalled, query).toEqual([]);
    }
  }, 120_000);
});
