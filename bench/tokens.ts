/**
 * Token counting: encoder construction, worst-case inputs with and without bounding, and
 * throughput on ordinary English and Chinese. Prints figures; asserts nothing.
 *
 *   npx tsx bench/tokens.ts           # unbounded worst case measured at 10 KB and 20 KB (~30 s)
 *   npx tsx bench/tokens.ts --quick   # unbounded at 2.5 KB and 5 KB
 */
import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";
import { RankTable, type RankTableSource } from "../src/llm/bpe.ts";
import { createTokenCounter } from "../src/llm/tokenizer.ts";

const quick = process.argv.includes("--quick");

function time<T>(run: () => T): { ms: number; value: T } {
  const started = performance.now();
  const value = run();
  return { ms: performance.now() - started, value };
}

async function importRanks(name: "cl100k_base" | "o200k_base"): Promise<TiktokenBPE> {
  return name === "cl100k_base"
    ? (await import("js-tiktoken/ranks/cl100k_base")).default
    : (await import("js-tiktoken/ranks/o200k_base")).default;
}

const english =
  "The quick brown fox jumps over the lazy dog. Memory services keep a rolling summary of older turns, " +
  "while recent messages stay verbatim; facts about the user (name, city, 3 preferences) live in a vector index. ";
const chinese =
  "用户说他叫小明，喜欢蓝色，住在上海。我们讨论了如何使用向量数据库保存长期记忆，以及在令牌预算之内组装上下文的策略。" +
  "压缩是阈值驱动的，而不是轮数驱动的：二十轮短对话不应该触发压缩！";
const kb = (text: string) => (new TextEncoder().encode(text).length / 1024).toFixed(0);

console.log("== encoder construction (import of the rank file, then new Tiktoken) ==");
for (const name of ["cl100k_base", "o200k_base"] as const) {
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const ranks = await importRanks(name);
  const imported = performance.now() - started;
  const built = time(() => new Tiktoken(ranks));
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  console.log(`${name}: import ${imported.toFixed(0)} ms, construct ${built.ms.toFixed(0)} ms, heap +${heapMb.toFixed(0)} MB`);
}

for (const name of ["cl100k_base", "o200k_base"] as const) {
  const started = performance.now();
  const source = (await import(`../src/llm/ranks/${name}.ts`)) as { default: RankTableSource };
  const imported = performance.now() - started;
  const built = time(() => new RankTable(source.default));
  console.log(`${name} (own packed table): import ${imported.toFixed(0)} ms, decode ${built.ms.toFixed(0)} ms`);
}

const ranks = await importRanks("cl100k_base");
const encoder = new Tiktoken(ranks);
const counter = createTokenCounter((await import("../src/llm/ranks/cl100k_base.ts")).default);
counter.count("warm up");

console.log("\n== worst case: a run without word boundaries (cl100k) ==");
const sizes = quick ? [2_500, 5_000] : [10_000, 20_000];
const unbounded = sizes.map((n) => ({ n, ms: time(() => encoder.encode("_".repeat(n), [], [])).ms }));
for (const { n, ms } of unbounded) console.log(`unbounded "_" x ${n}: ${ms.toFixed(0)} ms`);
const [small, large] = unbounded as [{ n: number; ms: number }, { n: number; ms: number }];
const exponent = Math.log(large.ms / small.ms) / Math.log(large.n / small.n);
const extrapolated = large.ms * (100_000 / large.n) ** exponent;
console.log(`growth exponent ${exponent.toFixed(2)}; unbounded "_" x 100000 extrapolated: ~${(extrapolated / 1000).toFixed(0)} s`);
for (const [label, text] of [
  ['"_" x 100000', "_".repeat(100_000)],
  ['"a" x 100000', "a".repeat(100_000)],
  ['"中" x 100000 (300 KB)', "中".repeat(100_000)],
  ["pseudo-random Han x 100000", Array.from({ length: 100_000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20_000))).join("")],
] as const) {
  const { ms, value } = time(() => counter.count(text));
  console.log(`bounded ${label}: ${ms.toFixed(0)} ms (${value} tokens)`);
}

/** Median of five runs, after one warm-up run. */
function median<T>(run: () => T): { ms: number; value: T } {
  run();
  const runs = Array.from({ length: 5 }, () => time(run)).sort((x, y) => x.ms - y.ms);
  return runs[2]!;
}

console.log("\n== throughput on ordinary text (cl100k, median of 5 after warm-up) ==");
for (const [label, text] of [
  ["English", english.repeat(500)],
  ["Chinese", chinese.repeat(600)],
] as const) {
  const exact = median(() => encoder.encode(text, [], []).length);
  const bounded = median(() => counter.count(text));
  const rate = (tokens: number, ms: number) => `${(((tokens / ms) * 1000) / 1e6).toFixed(2)} M tokens/s`;
  console.log(
    `${label} ${kb(text)} KB: exact ${exact.ms.toFixed(1)} ms (${rate(exact.value, exact.ms)}), ` +
      `bounded ${bounded.ms.toFixed(1)} ms (${rate(bounded.value, bounded.ms)}), counts ${exact.value} / ${bounded.value}`,
  );
}
