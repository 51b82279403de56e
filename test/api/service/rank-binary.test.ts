import { describe, expect, it } from "vitest";
import { RankTable } from "../../../src/llm/bpe.ts";
import cl100k from "../../../src/llm/ranks/cl100k_base.bin";
import o200k from "../../../src/llm/ranks/o200k_base.bin";
import { exactTokenCount } from "../../../src/llm/tokenizer.ts";

const TEXTS = [
  "hello world",
  "I'm planning a trip to Lisbon in May; budget 900 euros for five nights. Trams 28 and 12?",
  "用户说他叫小明，喜欢蓝色，住在上海。",
  "  spaces\n\n\ttabs\r\nand 1,000,000 numbers 3.14159 <|endoftext|> 😀👍🏽",
];

// A Worker build imports its rank table as a `Data` module (an ArrayBuffer) and reads it in place.
// This project builds like wrangler.toml (cl100k_base defined), so the service's own counter runs
// on that module too; test/unit/llm/rank-tables.test.ts compares both binaries with js-tiktoken's counts.
describe("the hashed rank tables as workerd loads them", () => {
  it("cl100k_base: the Data module counts as the service's counter does", async () => {
    const table = RankTable.fromHashed(cl100k);
    expect(table.encoding).toBe("cl100k_base");
    for (const text of TEXTS) expect(table.count(text), text).toBe(await exactTokenCount(text, "cl100k_base"));
    expect(table.count("hello world")).toBe(2);
  });

  it("o200k_base: the Data module loads and counts", () => {
    const table = RankTable.fromHashed(o200k);
    expect(table.encoding).toBe("o200k_base");
    expect(table.count("hello world")).toBe(2);
    expect(table.count(TEXTS[1]!)).toBeGreaterThan(15);
  });
});
