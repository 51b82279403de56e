import { describe, expect, it } from "vitest";
import { embedText } from "../../../tools/upstash-local/vector/embedder.ts";

const dot = (a: Float64Array, b: Float64Array): number => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
const sim = (a: string, b: string, dim = 384): number => dot(embedText(a, dim), embedText(b, dim));

describe("offline embedder", () => {
  it("is deterministic and L2-normalized", () => {
    const a = embedText("The quick brown fox", 384);
    expect(Array.from(a)).toEqual(Array.from(embedText("The quick brown fox", 384)));
    expect(dot(a, a)).toBeCloseTo(1, 12);
    expect(embedText("hello", 1536)).toHaveLength(1536);
    expect(embedText("hello", 8)).toHaveLength(8);
  });

  it("gives an all-zero vector for text without words", () => {
    expect(Array.from(embedText("  ,.!? ", 16)).every((x) => x === 0)).toBe(true);
  });

  it("ranks a related Chinese memory above an unrelated one", () => {
    const query = "用户叫什么名字? 小明";
    const related = sim(query, "我叫小明，喜欢蓝色");
    const unrelated = sim(query, "今天股市大幅下跌，投资者纷纷抛售");
    expect(related).toBeGreaterThan(unrelated + 0.1);
    expect(sim("小明喜欢什么颜色", "我叫小明，喜欢蓝色")).toBeGreaterThan(sim("小明喜欢什么颜色", "我叫小红，喜欢跑步"));
  });

  it("ranks related English text above unrelated text", () => {
    const query = "What is the user's name? Alice";
    expect(sim(query, "My name is Alice and my favorite color is blue")).toBeGreaterThan(
      sim(query, "The stock market fell sharply today") + 0.1,
    );
    // Character 3-grams make inflections and spelling variants overlap.
    expect(sim("favourite colours", "my favorite color is blue")).toBeGreaterThan(sim("favourite colours", "the train leaves at noon"));
  });

  it("ignores case and width differences", () => {
    expect(sim("Hello World", "hello world")).toBeCloseTo(1, 12);
    expect(sim("ＡＢＣ １２３", "abc 123")).toBeCloseTo(1, 12);
  });

  it("is not a hash of the whole text: one changed word keeps most of the similarity", () => {
    expect(sim("I moved to Berlin last year for work", "I moved to Munich last year for work")).toBeGreaterThan(0.6);
  });
});
