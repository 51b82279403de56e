import { describe, expect, it } from "vitest";
import type { Fact, StoredMessage } from "../../src/memory/types.ts";
import { HeuristicFactExtractor } from "../../src/llm/heuristic-extractor.ts";
import { isSalient, splitSentences } from "../../src/memory/salience.ts";

const msg = (role: StoredMessage["role"], content: string): StoredMessage => ({ id: "m", role, content, tokens: 1, importance: 0.5, ts: 0 });
const extract = (messages: StoredMessage[], existing: Fact[] = []) => new HeuristicFactExtractor().extract({ messages, existing });

describe("HeuristicFactExtractor", () => {
  it("turns a Chinese self-introduction with a preference into one memory, typed by the shared cue table", async () => {
    expect(await extract([msg("user", "我叫小明，喜欢蓝色")])).toEqual([{ op: "add", text: "我叫小明，喜欢蓝色", type: "preference", importance: 0.8 }]);
  });

  it("classifies Chinese sentences one by one", async () => {
    const ops = await extract([msg("user", "我住在上海。我喜欢喝茶！请记住我对花生过敏。今天天气不错")]);
    expect(ops.map((o) => (o.op === "add" ? [o.type, o.text] : o.op))).toEqual([
      ["fact", "我住在上海。"],
      ["preference", "我喜欢喝茶！"],
      ["fact", "请记住我对花生过敏。"],
    ]);
  });

  it("handles English cues", async () => {
    const cases: [string, string, number][] = [
      ["My name is Ann.", "fact", 0.8],
      ["Please call me Bob", "fact", 0.8],
      ["I'm allergic to peanuts", "fact", 0.9],
      ["I live in Berlin", "fact", 0.8],
      ["Remember that the deadline is Friday", "fact", 0.8],
      ["I prefer short answers", "preference", 0.7],
      ["I really like jazz", "preference", 0.7],
      ["I hate spam", "preference", 0.7],
      ["I always work at night", "fact", 0.8],
    ];
    for (const [text, type, importance] of cases) {
      expect(await extract([msg("user", text)]), text).toEqual([{ op: "add", text, type, importance }]);
      // one cue table: the extractor agrees with the salience the rest of the service uses
      expect(isSalient(text)).toMatchObject({ salient: true, type, importance });
    }
  });

  it("skips messages without a cue, questions and non-user messages", async () => {
    const ops = await extract([
      msg("user", "What's the weather like?"),
      msg("user", "你记得我叫什么吗？"),
      msg("user", "Do you remember my name?"),
      msg("assistant", "I always remember: my name is Assistant."),
      msg("tool", "I like JSON"),
      msg("system", "Remember to be polite"),
    ]);
    expect(ops.map((o) => o.op)).toEqual(["skip", "skip", "skip"]);
    expect(ops[0]).toEqual({ op: "skip", text: "What's the weather like?" });
  });

  it("does not match inside words or requests", async () => {
    for (const text of ["I'd like a coffee", "The alwayson flag is set"]) {
      expect((await extract([msg("user", text)]))[0]?.op, text).toBe("skip");
    }
  });

  it("skips what an existing fact already says and repeats within a batch", async () => {
    const existing: Fact = { id: "f", text: "I live in Berlin", type: "fact", importance: 0.8, createdAt: 0, updatedAt: 0, lastAccessedAt: 0, accessCount: 0, version: 1 };
    const ops = await extract([msg("user", "i live in  berlin"), msg("user", "I love tea"), msg("user", "I love tea")], [existing]);
    expect(ops.map((o) => o.op)).toEqual(["skip", "add", "skip"]);
  });

  it("is deterministic", async () => {
    const messages = [msg("user", "我是工程师。不要用英文回答。I prefer dark mode. Nothing here.")];
    const first = await extract(messages);
    expect(first.filter((o) => o.op === "add")).toHaveLength(3);
    expect(await extract(messages)).toEqual(first);
  });
});

describe("sentence helpers", () => {
  it("keeps decimals and splits on Chinese and Western terminators", () => {
    expect(splitSentences("Version 3.5 is out. 好的！再见\nbye")).toEqual(["Version 3.5 is out.", "好的！", "再见", "bye"]);
  });

  it("finds nothing to keep in a plain statement or a question", () => {
    expect(isSalient("The sky is blue.").salient).toBe(false);
    expect(isSalient("你记得我叫什么吗？").salient).toBe(false);
  });
});
