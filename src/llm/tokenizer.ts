import type { TokenCounter } from "../memory/ports.ts";
import { RankTable, type RankTableSource } from "./bpe.ts";
import { splitForCounting, type SplitLimits } from "./token-split.ts";

/** The BPE encodings the service supports; each lives in its own rank table module. */
export type TokenizerEncoding = "cl100k_base" | "o200k_base";

export interface TokenCounterOptions extends Partial<SplitLimits> {
  /** Rank table to use. Default `"cl100k_base"` (GPT-4 / 3.5); `"o200k_base"` for GPT-4o and later. */
  encoding?: TokenizerEncoding | undefined;
}

declare global {
  /**
   * The one rank table a Worker build bundles, set by wrangler's `[define]` (see wrangler.toml);
   * undefined in Node and tests, where both can be loaded.
   */
  var __RANK_TABLE__: string | undefined;
}

/** The encoding a build bundles, if it bundles only one. */
export function bundledEncoding(): string | undefined {
  return typeof globalThis.__RANK_TABLE__ === "string" ? globalThis.__RANK_TABLE__ : undefined;
}

// One decoded table per source per isolate: decoding costs a few ms of CPU, once.
const tables = new WeakMap<RankTableSource, RankTable>();
const sourceLoads = new Map<TokenizerEncoding, Promise<RankTableSource>>();

function tableFor(source: RankTableSource): RankTable {
  let table = tables.get(source);
  if (!table) {
    table = new RankTable(source);
    tables.set(source, table);
  }
  return table;
}

/**
 * Only the table that is asked for is evaluated, and a Worker build contains only the one named
 * by `[define]`: the other branch is a constant-false condition the bundler drops.
 */
function importSource(encoding: TokenizerEncoding): Promise<RankTableSource> {
  if (encoding === "cl100k_base" && globalThis.__RANK_TABLE__ !== "o200k_base") return import("./ranks/cl100k_base.ts").then((m) => m.default);
  if (encoding === "o200k_base" && globalThis.__RANK_TABLE__ !== "cl100k_base") return import("./ranks/o200k_base.ts").then((m) => m.default);
  return Promise.reject(new Error(`this build bundles the ${String(globalThis.__RANK_TABLE__)} rank table only, not ${encoding}: set [define] in wrangler.toml`));
}

/**
 * A counter over the given rank table. The table is decoded on the first non-empty `count`, once
 * per isolate and table. Text is cut into bounded pieces first (see `splitForCounting`), so the
 * cost is linear in the input even for adversarial runs; counts match tiktoken's exactly on
 * ordinary prose and within a fraction of a percent on long unbroken runs.
 */
export function createTokenCounter(source: RankTableSource, limits: Partial<SplitLimits> = {}): TokenCounter {
  return {
    count(text: string): number {
      if (text.length === 0) return 0;
      const table = tableFor(source);
      let total = 0;
      // No special tokens are honoured: "<|endoftext|>" in user text is just text.
      for (const piece of splitForCounting(text, limits)) total += table.count(piece);
      return total;
    },
  };
}

function loadSource(encoding: TokenizerEncoding): Promise<RankTableSource> {
  let load = sourceLoads.get(encoding);
  if (!load) {
    load = importSource(encoding);
    sourceLoads.set(encoding, load);
    load.catch(() => sourceLoads.delete(encoding));
  }
  return load;
}

/** Loads the one rank table for `options.encoding` (cached per isolate) and returns a counter on it. */
export async function loadTokenCounter(options: TokenCounterOptions = {}): Promise<TokenCounter> {
  const source = await loadSource(options.encoding ?? "cl100k_base");
  return createTokenCounter(source, { maxRunBytes: options.maxRunBytes, maxChunkBytes: options.maxChunkBytes });
}

/** Exact, unbounded count: only for trusted, short text (tests and benchmarks compare against it). */
export async function exactTokenCount(text: string, encoding: TokenizerEncoding = "cl100k_base"): Promise<number> {
  return tableFor(await loadSource(encoding)).count(text);
}
