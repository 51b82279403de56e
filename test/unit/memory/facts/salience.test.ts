import { describe, expect, it } from "vitest";
import { isSalient } from "../../../../src/memory/facts/salience.ts";
import { FactService } from "../../../../src/memory/facts/fact-service.ts";
import { factsToPersist } from "../../../../src/memory/facts/persisted-messages.ts";
import type { FactExtractor } from "../../../../src/memory/ports/llm.ts";
import { isFiller } from "../../../../src/memory/facts/salience.ts";
import { InMemoryFactStore } from "../../../support/fakes/facts.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";

const NOW = Date.UTC(2026, 0, 1);

describe("filler", () => {
  it("is never salient: acknowledgements, greetings and bare emphasis", () => {
    for (const text of ["Remember that.", "ok", "OK!", "Hello", "thanks!", "你好", "好的，谢谢", "记住这个", "Always."]) {
      expect(isFiller(text), text).toBe(true);
      expect(isSalient(text).salient, text).toBe(false);
    }
  });

  it("leaves statements with content alone", () => {
    for (const text of ["Remember that I am vegetarian", "remember: I like jazz", "我叫小明，喜欢蓝色", "我对花生过敏", "I'm Bo"]) {
      expect(isFiller(text), text).toBe(false);
      expect(isSalient(text).salient, text).toBe(true);
    }
  });

  it("is skipped whatever the extractor proposes; an explicit persist still stores it", async () => {
    const store = new InMemoryFactStore();
    const service = new FactService({ facts: store, scope: { tenant: "t", userId: "u" }, options: DEFAULT_MEMORY_OPTIONS, now: () => NOW });
    const extractor: FactExtractor = { extract: async () => [{ op: "add", text: "Remember that.", type: "fact", importance: 0.8 }] };
    const message = { id: "m1", role: "user" as const, content: "Remember that.", tokens: 3, importance: 0.5, ts: NOW };
    expect(await service.learn(extractor, [message], "s1")).toEqual({ added: [], updated: [], superseded: [], skipped: 1, episodes: [] });
    const persisted = await factsToPersist({
      incoming: [{ role: "user", content: "Remember that.", persist: true }],
      stored: [message],
      persistAll: false,
      scope: { tenant: "t", userId: "u" },
      sessionId: "s1",
      now: NOW,
    });
    expect(persisted.map((f) => f.text)).toEqual(["Remember that."]);
  });
});

describe("isSalient", () => {
  it.each([
    ["我叫小明，喜欢蓝色", "preference", true],
    ["我叫小明", "fact", true],
    ["请记住：我对花生过敏", "fact", true],
    ["My name is Ada Lovelace", "fact", true],
    ["I prefer tea over coffee", "preference", true],
    ["I’m allergic to peanuts", "fact", true],
    ["I always fly economy", "fact", true],
    ["我今天有点累", "context", true],
    ["今天天气不错", "context", false],
    ["你记得我叫什么吗？", "context", false],
    ["Do you remember my name?", "context", false],
    ["what is the weather like", "context", false],
    ["好的，谢谢", "context", false],
  ] as const)("%s -> %s", (text, type, salient) => {
    const result = isSalient(text);
    expect(result.salient).toBe(salient);
    expect(result.type).toBe(type);
  });

  it("rates health and emphasised statements above small talk", () => {
    expect(isSalient("I'm allergic to peanuts").importance).toBeGreaterThanOrEqual(0.9);
    expect(isSalient("remember: I like jazz").importance).toBeGreaterThan(isSalient("I like jazz").importance);
    expect(isSalient("我今天有点累").importance).toBeLessThan(0.5);
  });
});
