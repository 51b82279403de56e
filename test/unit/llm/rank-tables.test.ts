import { readFileSync, readdirSync } from "node:fs";
import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";
import { describe, expect, it } from "vitest";
import { RankTable, packHashedTable, type RankTableSource } from "../../../src/llm/bpe.ts";
import { rankBinaryPath } from "../../../scripts/rank-binaries.ts";
import { prng } from "../../support/prng.ts";

// The bundled rank tables are generated from js-tiktoken's (scripts/build-rank-tables.ts). Their
// counts must equal js-tiktoken's exactly; when js-tiktoken changes, this fails until they are rebuilt.

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
const sources = readdirSync(new URL("../../../src/memory/", import.meta.url), { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts"))
  .sort()
  .map((f) => read(`src/memory/${f}`));

function randomText(seed: number, length: number): string {
  const random = prng(seed);
  const pools = [
    "abcdefghijklmnopqrstuvwxyz",
    "ABCXYZ",
    "0123456789",
    " \n\t\r  ",
    ".,;:!?'\"()[]{}<>-_=+*/\\|@#$%^&~`",
    "äöüßéèñçøå",
    "你好世界记忆压缩上下文",
    "こんにちは",
    "한국어",
    "😀👍🏽🚀",
    "\u0301\u200d",
  ];
  let out = "";
  while (out.length < length) {
    const pool = pools[Math.floor(random() * pools.length)]!;
    const run = 1 + Math.floor(random() * 12);
    for (let i = 0; i < run; i++) out += [...pool][Math.floor(random() * [...pool].length)];
  }
  return out;
}

const corpus = [
  read("README.md"),
  ...sources,
  "I'm here, you're there; they'll say we've done it. 's 'T 'Re 'LL",
  "1234567890 3.14159 1,000,000 2026-12-01T14:00:00Z",
  "   leading and trailing spaces   \n\n\n\tTabs\r\nCRLF",
  "用户说他叫小明，喜欢蓝色，住在上海。我们讨论了如何使用向量数据库保存长期记忆。",
  "<|endoftext|> is plain text here",
  ...Array.from({ length: 40 }, (_, i) => randomText(i + 1, 400)),
];

/** js-tiktoken's own tables, each imported by name (a bare specifier built from a variable cannot be resolved ahead). */
const REFERENCE_RANKS = {
  cl100k_base: () => import("js-tiktoken/ranks/cl100k_base"),
  o200k_base: () => import("js-tiktoken/ranks/o200k_base"),
} as const;

describe.each(["cl100k_base", "o200k_base"] as const)("the packed %s table", (encoding) => {
  it("counts exactly as js-tiktoken does", async () => {
    const ranks: TiktokenBPE = (await REFERENCE_RANKS[encoding]()).default;
    const reference = new Tiktoken(ranks);
    const packed = ((await import(`../../../src/llm/ranks/${encoding}.ts`)) as { default: RankTableSource }).default;
    const table = new RankTable(packed);
    const referenceTokens = ranks.bpe_ranks
      .split("\n")
      .filter(Boolean)
      .reduce((n, line) => n + line.split(" ").length - 2, 0);
    expect(packed.tokens).toBe(referenceTokens);
    expect(packed.pattern).toBe(ranks.pat_str);
    let total = 0;
    for (const text of corpus) {
      const expected = reference.encode(text, [], []).length;
      expect(table.count(text), text.slice(0, 60)).toBe(expected);
      total += expected;
    }
    expect(total).toBeGreaterThan(20_000);
  });
});

describe.each(["cl100k_base", "o200k_base"] as const)("the hashed %s binary (what a Worker build bundles)", (encoding) => {
  it("is what the build step wrote, and counts as the packed table does", async () => {
    const packed = ((await import(`../../../src/llm/ranks/${encoding}.ts`)) as { default: RankTableSource }).default;
    const bytes = packHashedTable(packed);
    // the test setup writes the binaries; a stale one would be a different table
    expect(Buffer.compare(readFileSync(rankBinaryPath(encoding)), bytes)).toBe(0);
    const hashed = RankTable.fromHashed(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const table = new RankTable(packed);
    expect(hashed.encoding).toBe(encoding);
    for (const text of corpus) expect(hashed.count(text), text.slice(0, 60)).toBe(table.count(text));
  });

  it("is refused when it is not a hashed table", () => {
    expect(() => RankTable.fromHashed(new Uint8Array(64).buffer)).toThrow(/not a hashed rank table/);
  });
});
