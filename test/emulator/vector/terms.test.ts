import { describe, expect, it } from "vitest";
import { bm25Document, bm25Query } from "../../../tools/upstash-local/vector/bm25.ts";
import { DEFAULT_BM25 } from "../../../tools/upstash-local/vector/config.ts";
import { embedText } from "../../../tools/upstash-local/vector/embedder.ts";
import { lightStem } from "../../../tools/upstash-local/vector/light-stem.ts";
import { DEFAULT_TERM_OPTIONS, termId, textTerms, type TermOptions } from "../../../tools/upstash-local/vector/terms.ts";

const terms = (text: string, options: Partial<TermOptions> = {}): string[] => textTerms(text, { ...DEFAULT_TERM_OPTIONS, ...options });

describe("BM25 terms", () => {
  it("splits Chinese into unigrams and bigrams by default, dropping function characters", () => {
    expect(terms("我叫小明")).toEqual(["叫", "小", "明", "我叫", "叫小", "小明"]);
    expect(terms("我叫小明", { cjk: "bigrams" })).toEqual(["我叫", "叫小", "小明"]);
    expect(terms("的")).toEqual([]);
    expect(terms("我叫小明", { stopWords: false })).toContain("我");
  });

  it("can use Intl.Segmenter words or any custom segmenter for Chinese", () => {
    expect(terms("用户叫什么名字", { cjk: "segmenter" })).toEqual(["用户", "叫", "名字"]); // 什么 is a stop word
    expect(terms("小明喜欢", { cjk: (run) => [run] })).toEqual(["小明喜欢"]);
  });

  it("lowercases, drops English stop words and stems (Porter by default, light or none as options)", () => {
    expect(terms("The Dogs were RUNNING")).toEqual(["dog", "run"]);
    expect(terms("The Dogs were RUNNING", { words: "plain" })).toEqual(["dogs", "running"]);
    expect(terms("ＡＢＣ colours")).toEqual(["abc", "colour"]);
    expect(["moved", "moving", "studies", "classes"].map(lightStem)).toEqual(["mov", "mov", "study", "class"]);
  });

  it("maps terms to stable non-negative int32 ids", () => {
    expect(termId("小明")).toBe(termId("小明"));
    expect(termId("小明")).not.toBe(termId("蓝色"));
    for (const t of ["a", "dog", "小明", "🙂"]) {
      expect(Number.isInteger(termId(t)) && termId(t) >= 0 && termId(t) <= 0x7fffffff).toBe(true);
    }
  });

  it("gives documents saturating, length-normalized weights and queries term presence", () => {
    const doc = bm25Document("dog dog dog cat", DEFAULT_BM25);
    const norm = 1.2 * (0.25 + (0.75 * 4) / 32);
    const byId = new Map(doc.indices.map((i, k) => [i, doc.values[k]]));
    expect(byId.get(termId("dog"))).toBeCloseTo((3 * 2.2) / (3 + norm), 12);
    expect(byId.get(termId("cat"))).toBeCloseTo(2.2 / (1 + norm), 12);
    expect(doc.indices).toEqual([...doc.indices].sort((a, b) => a - b));
    expect(bm25Query("dog dog cat", DEFAULT_BM25).values).toEqual([1, 1]);
  });
});

describe("weighted dense model", () => {
  const cos = (a: string, b: string, stopFeatures: boolean): number => {
    const x = embedText(a, 1024, { stopFeatures });
    const y = embedText(b, 1024, { stopFeatures });
    return x.reduce((s, v, i) => s + v * (y[i] ?? 0), 0);
  };

  it("lets shared stop words count for less than shared content words", () => {
    const query = "what did the user say about the dog";
    const sharesStopWords = "what did the user say about the weather";
    const sharesDog = "my dog Biscuit";
    expect(cos(query, sharesStopWords, false)).toBeGreaterThan(cos(query, sharesDog, false));
    expect(cos(query, sharesDog, true) - cos(query, sharesStopWords, true)).toBeGreaterThan(
      cos(query, sharesDog, false) - cos(query, sharesStopWords, false),
    );
    expect(cos("用户的名字是什么", "我的狗是什么颜色", true)).toBeLessThan(cos("用户的名字是什么", "我的狗是什么颜色", false));
  });

  it("leaves the original model unchanged when off", () => {
    expect(Array.from(embedText("Hello world", 64, { stopFeatures: false }))).toEqual(Array.from(embedText("Hello world", 64)));
  });
});
