import { readFileSync } from "node:fs";
import type { RankTableSource } from "../../../../src/llm/bpe.ts";
import packed from "../../../../src/llm/ranks/cl100k_base.ts";
import { beforeAll, describe, expect, it } from "vitest";
import type { TokenCounter } from "../../../../src/memory/ports/llm.ts";
import { DEFAULT_SPLIT_LIMITS, splitForCounting } from "../../../../src/llm/token-split.ts";
import { createTokenCounter, exactTokenCount, loadTokenCounter } from "../../../../src/llm/tokenizer.ts";
import { MESSAGE_OVERHEAD_TOKENS } from "../../../../src/memory/context/window.ts";
import { countMessageTokens } from "../../../../src/memory/context/window.ts";

const english =
  "The quick brown fox jumps over the lazy dog. Memory services keep a rolling summary of older turns, " +
  "while recent messages stay verbatim; facts about the user (name, city, 3 preferences) live in a vector index. ";
const chinese =
  "用户说他叫小明，喜欢蓝色，住在上海。我们讨论了如何使用向量数据库保存长期记忆，以及在令牌预算之内组装上下文的策略。" +
  "压缩是阈值驱动的，而不是轮数驱动的：二十轮短对话不应该触发压缩！";
// Long clauses without punctuation: the natural text with the most hard cuts.
const chineseLongClauses = "我今天下午要去北京参加一个非常重要的关于人工智能代理记忆管理系统设计的技术研讨会然后晚上和朋友一起吃饭";
const code = readFileSync(new URL("../../../../src/memory/context/assemble.ts", import.meta.url), "utf8");

function pseudoBase64(length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let state = 1;
  let out = "";
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out += alphabet[state % 64];
  }
  return out;
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

let cl: TokenCounter;
let o200k: TokenCounter;

beforeAll(async () => {
  cl = await loadTokenCounter();
  o200k = await loadTokenCounter({ encoding: "o200k_base" });
});

describe("bounded token counting", () => {
  // Observed: English, Chinese and code are exact with both encodings (deviation 0). Chinese with
  // 50-character clauses between full stops: cl100k exact, o200k +20 of 641 (3.1%: o200k has longer
  // Chinese tokens, so a hard cut every 21 characters costs more); the per-cut bound below covers it.
  const natural: Record<string, string> = {
    english: english.repeat(40),
    chinese: chinese.repeat(30),
    code,
    mixed: `${chinese}\n\n${english}\n\`\`\`ts\n${code.slice(0, 2000)}\n\`\`\`\n`.repeat(5),
  };

  for (const [name, text] of Object.entries(natural)) {
    it(`is exact on ordinary ${name} text (cl100k and o200k)`, async () => {
      expect(cl.count(text)).toBe(await exactTokenCount(text));
      expect(o200k.count(text)).toBe(await exactTokenCount(text, "o200k_base"));
    });
  }

  it("stays within 1% + 3 tokens on Chinese with long clauses (cl100k)", async () => {
    const text = `${chineseLongClauses}。`.repeat(20);
    const exact = await exactTokenCount(text);
    expect(Math.abs(cl.count(text) - exact)).toBeLessThanOrEqual(exact * 0.01 + 3);
  });

  // Observed (cl100k): underscores, letters, Han, emoji, digits and newlines exact; 6000 chars of
  // pseudo-base64 +2 tokens of 1119; 3001 spaces +23 of 25; underscore/dash walls +10 of 140.
  // (Sizes here are smaller: the exact count they are compared with is the slow, quadratic one.)
  const adversarial: Record<string, string> = {
    underscores: "_".repeat(2000),
    letters: "a".repeat(2000),
    han: "中".repeat(600),
    base64: pseudoBase64(4000),
    spaces: `${" ".repeat(1500)}x`,
    newlines: "\n".repeat(1500),
    emoji: "😀".repeat(400),
    digits: "1234567890".repeat(300),
    walls: `word${"_".repeat(300)}中文${"-".repeat(300)}`.repeat(10),
    specialTokens: "<|endoftext|> hello <|fim_prefix|> world",
    chineseWithoutPunctuation: chineseLongClauses.repeat(6),
  };

  for (const [name, text] of Object.entries(adversarial)) {
    it(`moves by at most one token per hard cut on ${name}`, async () => {
      const hardCutsAtMost = Math.ceil(utf8Bytes(text) / DEFAULT_SPLIT_LIMITS.maxRunBytes);
      expect(Math.abs(cl.count(text) - (await exactTokenCount(text)))).toBeLessThanOrEqual(hardCutsAtMost + 2);
      expect(Math.abs(o200k.count(text) - (await exactTokenCount(text, "o200k_base")))).toBeLessThanOrEqual(hardCutsAtMost + 2);
    });
  }

  it("counts 100,000 underscores, letters or 30,000 Han characters as bounded pieces (bench/tokens.ts times it)", () => {
    // Unbounded, 10,000 underscores alone take ~5 s: the cost is quadratic in the longest piece.
    const utf8 = new TextEncoder();
    for (const text of ["_".repeat(100_000), "a".repeat(100_000), "中".repeat(30_000)]) {
      const pieces = splitForCounting(text);
      expect(Math.max(...pieces.map((p) => utf8.encode(p).length))).toBeLessThanOrEqual(64);
      expect(cl.count(text)).toBeGreaterThan(0);
    }
  });

  it("treats special-token text as plain text instead of throwing", () => {
    expect(cl.count("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("counts the empty string as 0", () => {
    expect(cl.count("")).toBe(0);
  });
});

describe("splitForCounting", () => {
  const samples = [english, chinese, code, pseudoBase64(3000), "😀".repeat(300), "a".repeat(1000), `x${"𠀀".repeat(200)}`];

  it("returns consecutive pieces that join back to the input", () => {
    for (const text of samples) expect(splitForCounting(text).join("")).toBe(text);
  });

  it("bounds every piece and never splits a surrogate pair", () => {
    for (const text of samples) {
      for (const piece of splitForCounting(text, { maxRunBytes: 32, maxChunkBytes: 128 })) {
        expect(utf8Bytes(piece)).toBeLessThanOrEqual(128);
        expect(piece.charCodeAt(0) >= 0xdc00 && piece.charCodeAt(0) <= 0xdfff).toBe(false);
      }
    }
  });

  it("cuts runs without boundaries at maxRunBytes", () => {
    const pieces = splitForCounting("a".repeat(200), { maxRunBytes: 64 });
    expect(pieces.map((p) => p.length)).toEqual([64, 64, 64, 8]);
  });

  it("prefers cutting before a space", () => {
    const pieces = splitForCounting("hello world ".repeat(20), { maxRunBytes: 64, maxChunkBytes: 64 });
    for (const piece of pieces.slice(1)) expect(piece.startsWith(" ")).toBe(true);
  });
});

describe("encoder lifecycle", () => {
  it("decodes the rank table on first count, once per table", () => {
    let reads = 0;
    const ranks: RankTableSource = {
      encoding: packed.encoding,
      pattern: packed.pattern,
      tokens: packed.tokens,
      get data() {
        reads += 1;
        return packed.data;
      },
    };
    const first = createTokenCounter(ranks);
    const second = createTokenCounter(ranks);
    expect(reads).toBe(0);
    expect(first.count("")).toBe(0);
    expect(reads).toBe(0);
    expect(first.count("hello world")).toBe(2);
    expect(second.count("hello world")).toBe(2);
    expect(reads).toBe(1);
  });
});

describe("remembered counts", () => {
  it("counts a text the same the second time, and counters with other limits keep their own", async () => {
    const run = pseudoBase64(500);
    const tight = await loadTokenCounter({ maxRunBytes: 16 });
    const plain = await loadTokenCounter();
    const tightFirst = tight.count(run);
    const plainFirst = plain.count(run);
    expect(tightFirst).not.toBe(plainFirst);
    expect(tight.count(run)).toBe(tightFirst);
    expect(plain.count(run)).toBe(plainFirst);
    expect(plain.count(english)).toBe(await exactTokenCount(english));
    expect(plain.count(english)).toBe(await exactTokenCount(english));
  });

  it("counts long texts and many distinct texts the same as the table does", async () => {
    const counter = await loadTokenCounter();
    const long = english.repeat(4);
    expect(counter.count(long)).toBe(await exactTokenCount(long));
    for (let i = 0; i < 5000; i++) {
      const text = `fact ${i}: the user likes ${i % 7 === 0 ? "tea" : "coffee"}`;
      if (i % 997 === 0) expect(counter.count(text)).toBe(await exactTokenCount(text));
      else counter.count(text);
    }
    expect(counter.count("fact 1: the user likes coffee")).toBe(await exactTokenCount("fact 1: the user likes coffee"));
  });
});

describe("countMessageTokens", () => {
  it("adds the per-message overhead, the name and the tool calls", () => {
    const counter: TokenCounter = { count: (text) => text.length };
    expect(countMessageTokens({ content: "abcd" }, counter)).toBe(MESSAGE_OVERHEAD_TOKENS + 4);
    const withName = countMessageTokens({ content: "abcd", name: "bob" }, counter);
    expect(withName).toBe(MESSAGE_OVERHEAD_TOKENS + 4 + 1 + 3);
    const withCall = countMessageTokens(
      { content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "get", arguments: '{"a":1}' } }] },
      counter,
    );
    expect(withCall).toBe(MESSAGE_OVERHEAD_TOKENS + 3 + 3 + 7);
  });
});
