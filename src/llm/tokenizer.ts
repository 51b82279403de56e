/// <reference path="./ranks/binary.d.ts" />
import type { TokenCounter } from "../memory/ports/index.ts";
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
const tableLoads = new Map<TokenizerEncoding, Promise<RankTable>>();

function tableFor(source: RankTableSource): RankTable {
  let table = tables.get(source);
  if (!table) {
    table = new RankTable(source);
    tables.set(source, table);
  }
  return table;
}

/**
 * A Worker build (`[define]` names one table) imports that table's binary with its hash built in
 * (a `Data` module written by scripts/rank-binaries.ts at build time): nothing to decode or hash in
 * a fresh isolate. Node and the tests import the base64 module and build the hash once. Every
 * condition compares the defined constant with a string, so the bundler drops the other branches.
 */
function importTable(encoding: TokenizerEncoding): Promise<RankTable> {
  if (encoding === "cl100k_base" && globalThis.__RANK_TABLE__ === "cl100k_base")
    return import("./ranks/cl100k_base.bin").then((m) => RankTable.fromHashed(m.default));
  if (encoding === "o200k_base" && globalThis.__RANK_TABLE__ === "o200k_base")
    return import("./ranks/o200k_base.bin").then((m) => RankTable.fromHashed(m.default));
  if (globalThis.__RANK_TABLE__ !== "cl100k_base" && globalThis.__RANK_TABLE__ !== "o200k_base") {
    if (encoding === "cl100k_base") return import("./ranks/cl100k_base.ts").then((m) => tableFor(m.default));
    if (encoding === "o200k_base") return import("./ranks/o200k_base.ts").then((m) => tableFor(m.default));
  }
  return Promise.reject(
    new Error(
      `this build bundles the ${String(globalThis.__RANK_TABLE__)} rank table only, not ${encoding}: set [define] in wrangler.toml`,
    ),
  );
}

/** Texts up to this length are remembered with their count (fact lines, labels, headers). */
const MEMO_MAX_CHARS = 512;
/** Remembered texts per table and limits; the memo starts over when it holds this many. */
const MEMO_ENTRIES = 4096;
// Per isolate: the same short texts (a user's fact lines, section labels) are counted on every
// recall of that user, and a count never changes for a text, a table and limits.
const memos = new WeakMap<RankTable, Map<string, Map<string, number>>>();

function memoFor(table: RankTable, limits: Partial<SplitLimits>): Map<string, number> {
  let byLimits = memos.get(table);
  if (!byLimits) {
    byLimits = new Map();
    memos.set(table, byLimits);
  }
  const key = `${limits.maxRunBytes ?? ""}:${limits.maxChunkBytes ?? ""}`;
  let memo = byLimits.get(key);
  if (!memo) {
    memo = new Map();
    byLimits.set(key, memo);
  }
  return memo;
}

function counterOn(table: RankTable, limits: Partial<SplitLimits>): TokenCounter {
  const memo = memoFor(table, limits);
  const countAll = (text: string): number => {
    let total = 0;
    // No special tokens are honoured: "<|endoftext|>" in user text is just text.
    for (const piece of splitForCounting(text, limits)) total += table.count(piece);
    return total;
  };
  return {
    count(text: string): number {
      if (text.length === 0) return 0;
      if (text.length > MEMO_MAX_CHARS) return countAll(text);
      let tokens = memo.get(text);
      if (tokens === undefined) {
        tokens = countAll(text);
        if (memo.size >= MEMO_ENTRIES) memo.clear();
        memo.set(text, tokens);
      }
      return tokens;
    },
  };
}

/**
 * A counter over the given rank table. The table is decoded on the first non-empty `count`, once
 * per isolate and table. Text is cut into bounded pieces first (see `splitForCounting`), so the
 * cost is linear in the input even for adversarial runs; counts match tiktoken's exactly on
 * ordinary prose and within a fraction of a percent on long unbroken runs.
 */
export function createTokenCounter(source: RankTableSource, limits: Partial<SplitLimits> = {}): TokenCounter {
  let counter: TokenCounter | null = null;
  return {
    count(text: string): number {
      if (text.length === 0) return 0;
      counter ??= counterOn(tableFor(source), limits);
      return counter.count(text);
    },
  };
}

function loadTable(encoding: TokenizerEncoding): Promise<RankTable> {
  let load = tableLoads.get(encoding);
  if (!load) {
    load = importTable(encoding);
    tableLoads.set(encoding, load);
    load.catch(() => tableLoads.delete(encoding));
  }
  return load;
}

/** Loads the one rank table for `options.encoding` (cached per isolate) and returns a counter on it. */
export async function loadTokenCounter(options: TokenCounterOptions = {}): Promise<TokenCounter> {
  const table = await loadTable(options.encoding ?? "cl100k_base");
  return counterOn(table, { maxRunBytes: options.maxRunBytes, maxChunkBytes: options.maxChunkBytes });
}

/** Exact, unbounded count: only for trusted, short text (tests and benchmarks compare against it). */
export async function exactTokenCount(text: string, encoding: TokenizerEncoding = "cl100k_base"): Promise<number> {
  return (await loadTable(encoding)).count(text);
}
