import { beforeAll, describe, expect, it } from "vitest";
import { ExtractiveSummarizer, extractiveSummary } from "../../../../src/memory/compression/extractive-summary.ts";
import { splitSentences } from "../../../../src/memory/facts/salience.ts";
import type { TokenCounter } from "../../../../src/memory/ports/llm.ts";
import { fitTextHead } from "../../../../src/memory/context/text-fit.ts";
import { loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import type { Summary } from "../../../../src/memory/model.ts";
import { storedMessage } from "../../../support/fakes/messages.ts";

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

const chinese = [
  storedMessage("user", "你好！我叫小明，在上海做后端开发。请记住，我更喜欢用 Go 写服务。"),
  storedMessage("assistant", "你好小明！很高兴认识你。Go 确实适合高并发服务。"),
  storedMessage("user", "今天天气不错。我们下周三要上线 2.5 版本，预算是 30 万元。"),
  storedMessage("assistant", "好的，祝上线顺利。"),
  storedMessage("user", "嗯嗯。"),
];

const english = [
  storedMessage("user", "Hi there. My name is Ada and I'm allergic to peanuts. Please remember that."),
  storedMessage("assistant", "Nice to meet you, Ada! I will keep your allergy in mind."),
  storedMessage("user", "We ship version 3.2 to Berlin on Friday. The budget is 12000 euros. Thanks!"),
  storedMessage("assistant", "Great, good luck with the launch."),
];

const summary = (text: string): Summary => ({
  text,
  tokens: counter.count(text),
  version: 1,
  covered: 3,
  method: "extractive",
  updatedAt: 0,
  lastRatio: 0.5,
});

describe("extractiveSummary", () => {
  it("keeps the salient Chinese statements, prefixed by role", () => {
    const text = extractiveSummary({ previous: null, messages: chinese, maxTokens: 500 }, counter);
    const lines = text.split("\n");
    expect(lines.every((l) => /^(user|assistant|tool): /.test(l))).toBe(true);
    expect(text).toContain("我叫小明");
    expect(text).toContain("更喜欢用 Go");
    expect(text).toContain("2.5 版本");
    expect(text).not.toContain("祝上线顺利"); // nothing in it stands out
    expect(counter.count(text)).toBeLessThanOrEqual(500);
  });

  it("keeps the salient English statements, names and numbers", () => {
    const text = extractiveSummary({ previous: null, messages: english, maxTokens: 500 }, counter);
    expect(text).toContain("allergic to peanuts");
    expect(text).toContain("3.2 to Berlin");
    expect(text).not.toContain("good luck");
  });

  it("never exceeds maxTokens, in Chinese or English, however small", () => {
    const previous = summary("user: 以前的摘要内容，关于项目进度的讨论。\nuser: My favourite colour is green.");
    for (const messages of [chinese, english, [...chinese, ...english]]) {
      for (const maxTokens of [0, 1, 5, 12, 30, 60, 120, 1000]) {
        const text = extractiveSummary({ previous, messages, maxTokens }, counter);
        expect(counter.count(text)).toBeLessThanOrEqual(maxTokens);
        if (maxTokens >= 30) expect(text.length).toBeGreaterThan(0);
      }
    }
  });

  it("folds in the previous summary and drops its oldest plain lines first", () => {
    const previous = summary(["user: 我们聊了天气。", "user: 请记住我的生日是 5 月 1 日。", "assistant: 聊了午饭吃什么。"].join("\n"));
    const roomy = extractiveSummary({ previous, messages: chinese.slice(0, 1), maxTokens: 500 }, counter);
    expect(roomy.split("\n")[0]).toBe("user: 我们聊了天气。");
    expect(roomy).toContain("我叫小明");

    const fresh = extractiveSummary({ previous: null, messages: chinese.slice(0, 1), maxTokens: 500 }, counter);
    const birthday = "user: 请记住我的生日是 5 月 1 日。";
    const tight = extractiveSummary(
      { previous, messages: chinese.slice(0, 1), maxTokens: counter.count(`${birthday}\n${fresh}`) },
      counter,
    );
    expect(tight).toBe(`${birthday}\n${fresh}`); // both plain lines went, the remembered birthday stayed
  });

  it("is deterministic", () => {
    const request = { previous: summary("user: a"), messages: [...english, ...chinese], maxTokens: 80 };
    expect(extractiveSummary(request, counter)).toBe(extractiveSummary(request, counter));
  });

  it("is the offline Summarizer, marked as extractive", async () => {
    const result = await new ExtractiveSummarizer(counter).summarize({ previous: null, messages: english, maxTokens: 100 });
    expect(result.method).toBe("extractive");
    expect(result.text).toContain("Ada");
  });
});

describe("splitSentences", () => {
  it("splits Chinese and English sentences and keeps decimals whole", () => {
    expect(splitSentences("你好！我叫小明。版本 2.5 上线了？好")).toEqual(["你好！", "我叫小明。", "版本 2.5 上线了？", "好"]);
    expect(splitSentences("Hi there. Version 3.2 ships! Ok?\nNext line")).toEqual(["Hi there.", "Version 3.2 ships!", "Ok?", "Next line"]);
  });
});

describe("fitTextHead", () => {
  it("keeps whole lines from the start, then cuts characters, never over the limit", () => {
    const text = "first line here\nsecond line here\nthird line here";
    const two = counter.count("first line here\nsecond line here");
    expect(fitTextHead(text, two, counter)).toEqual({ text: "first line here\nsecond line here", tokens: two, cut: true });
    expect(fitTextHead(text, 1000, counter).cut).toBe(false);
    for (let limit = 0; limit < 15; limit++) {
      const fitted = fitTextHead(`${"中文摘要内容".repeat(5)}\n${text}`, limit, counter);
      expect(fitted.tokens).toBeLessThanOrEqual(limit);
      expect(counter.count(fitted.text)).toBe(fitted.tokens);
    }
  });
});
