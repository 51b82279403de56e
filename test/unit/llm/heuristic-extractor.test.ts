import { describe, expect, it } from "vitest";
import type { Fact, StoredMessage } from "../../../src/memory/model.ts";
import { HeuristicFactExtractor } from "../../../src/llm/heuristic-extractor.ts";
import { splitSentences } from "../../../src/memory/facts/salience.ts";

/** 2026-12-01 (a Tuesday), noon UTC. */
const NOW = Date.UTC(2026, 11, 1, 12);
const msg = (role: StoredMessage["role"], content: string, ts = NOW): StoredMessage => ({
  id: "m",
  role,
  content,
  tokens: 1,
  importance: 0.5,
  ts,
});
const extract = (messages: StoredMessage[], existing: Fact[] = []) => new HeuristicFactExtractor().extract({ messages, existing });
const fact = (id: string, text: string): Fact => ({
  id,
  text,
  type: "fact",
  importance: 0.8,
  createdAt: 0,
  updatedAt: 0,
  lastAccessedAt: 0,
  accessCount: 0,
  version: 1,
});

describe("HeuristicFactExtractor (the offline learner)", () => {
  it("splits a Chinese self-introduction into a name fact and a preference", async () => {
    expect(await extract([msg("user", "我叫小明，喜欢蓝色")])).toEqual([
      { op: "add", text: "用户叫小明。", type: "fact", importance: 0.85 },
      { op: "add", text: "用户喜欢蓝色。", type: "preference", importance: 0.7 },
    ]);
  });

  it("reads Chinese sentences one by one and drops small talk", async () => {
    const ops = await extract([msg("user", "我住在上海。我喜欢喝茶！请记住我对花生过敏。今天天气不错")]);
    expect(ops).toEqual([
      { op: "add", text: "用户住在上海。", type: "fact", importance: 0.8 },
      { op: "add", text: "用户喜欢喝茶。", type: "preference", importance: 0.7 },
      // health weighs most; "请记住" adds emphasis
      { op: "add", text: "用户对花生过敏。", type: "fact", importance: 0.95 },
    ]);
  });

  it("writes English statements in the third person, typed by what they are about", async () => {
    const cases: [string, string, string, number][] = [
      ["My name is Ann.", "The user's name is Ann.", "fact", 0.85],
      ["Please call me Bob", "The user's name is Bob.", "fact", 0.85],
      ["I'm allergic to peanuts", "The user is allergic to peanuts.", "fact", 0.9],
      ["I live in Berlin", "The user lives in Berlin.", "fact", 0.8],
      ["I prefer short answers", "The user prefers short answers.", "preference", 0.7],
      ["I really like jazz", "The user really likes jazz.", "preference", 0.7],
      ["I hate spam", "The user hates spam.", "preference", 0.7],
      ["I always work at night", "The user always works at night.", "fact", 0.65],
      ["Remember that I always take the window seat", "The user always takes the window seat.", "fact", 0.8],
      ["I watch birds every weekend", "The user watches birds every weekend.", "fact", 0.6],
      ["I study law at night school", "The user studies law at night school.", "fact", 0.75],
    ];
    for (const [text, stored, type, importance] of cases) {
      expect(await extract([msg("user", text)]), text).toEqual([{ op: "add", text: stored, type, importance }]);
    }
  });

  it("skips questions, requests and messages of other roles", async () => {
    const ops = await extract([
      msg("user", "What's the weather like?"),
      msg("user", "你记得我叫什么吗？"),
      msg("user", "Do you remember my name?"),
      msg("assistant", "I always remember: my name is Assistant."),
      msg("tool", "I like JSON"),
      msg("system", "Remember to be polite"),
    ]);
    expect(ops).toEqual([
      { op: "skip", text: "What's the weather like?" },
      { op: "skip", text: "你记得我叫什么吗？" },
      { op: "skip", text: "Do you remember my name?" },
    ]);
  });

  it("does not take a request or a word inside another word for a statement", async () => {
    for (const text of ["I'd like a coffee", "The alwayson flag is set", "I'd like you to write a limerick"]) {
      expect(await extract([msg("user", text)]), text).toEqual([{ op: "skip", text }]);
    }
  });

  it("skips what an existing fact already says, in its own words or the learner's, and repeats within a batch", async () => {
    const ops = await extract(
      [msg("user", "i live in  berlin"), msg("user", "I love tea"), msg("user", "I love tea")],
      [fact("f", "I live in Berlin")],
    );
    expect(ops).toEqual([
      // the learner keeps the user's spelling; the comparison ignores case and spacing
      { op: "skip", text: "The user lives in berlin." },
      { op: "add", text: "The user loves tea.", type: "preference", importance: 0.7 },
      { op: "skip", text: "The user loves tea." },
    ]);
    expect(await extract([msg("user", "I live in Berlin")], [fact("g", "The user lives in Berlin.")])).toEqual([
      { op: "skip", text: "The user lives in Berlin." },
    ]);
  });

  it("is deterministic", async () => {
    const messages = [msg("user", "我是工程师。不要用英文回答。I prefer dark mode. Nothing here.")];
    const first = await extract(messages);
    expect(first.filter((o) => o.op === "add").map((o) => o.text)).toEqual(["用户是工程师。", "The user prefers dark mode."]);
    expect(await extract(messages)).toEqual(first);
  });
});

describe("sentence helpers", () => {
  it("keeps decimals and splits on Chinese and Western terminators", () => {
    expect(splitSentences("Version 3.5 is out. 好的！再见\nbye")).toEqual(["Version 3.5 is out.", "好的！", "再见", "bye"]);
  });
});
