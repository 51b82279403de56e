import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";
import type { TokenCounter } from "../memory/ports.ts";
import { splitForCounting, type SplitLimits } from "./token-split.ts";

/** The BPE encodings the service supports; each lives in its own rank file. */
export type TokenizerEncoding = "cl100k_base" | "o200k_base";

export interface TokenCounterOptions extends Partial<SplitLimits> {
  /** Rank file to use. Default `"cl100k_base"` (GPT-4 / 3.5); `"o200k_base"` for GPT-4o and later. */
  encoding?: TokenizerEncoding | undefined;
}

// One encoder per rank table per isolate: building one costs ~200-500 ms of CPU and 30-70 MB.
const encoders = new WeakMap<TiktokenBPE, Tiktoken>();
const rankLoads = new Map<TokenizerEncoding, Promise<TiktokenBPE>>();

function encoderFor(ranks: TiktokenBPE): Tiktoken {
  let encoder = encoders.get(ranks);
  if (!encoder) {
    encoder = new Tiktoken(ranks);
    encoders.set(ranks, encoder);
  }
  return encoder;
}

// Only the rank file that is asked for is ever evaluated (each is 1-2 MB of source).
function importRanks(encoding: TokenizerEncoding): Promise<TiktokenBPE> {
  switch (encoding) {
    case "cl100k_base":
      return import("js-tiktoken/ranks/cl100k_base").then((m) => m.default);
    case "o200k_base":
      return import("js-tiktoken/ranks/o200k_base").then((m) => m.default);
  }
}

/**
 * A counter over the given rank table. The encoder is built on the first non-empty `count`, once
 * per isolate and table. Text is cut into bounded pieces first (see `splitForCounting`), so the
 * cost is linear in the input even for adversarial runs; counts match `encode().length` exactly on
 * ordinary prose and within a fraction of a percent on long unbroken runs.
 */
export function createTokenCounter(ranks: TiktokenBPE, limits: Partial<SplitLimits> = {}): TokenCounter {
  return {
    count(text: string): number {
      if (text.length === 0) return 0;
      const encoder = encoderFor(ranks);
      let total = 0;
      // No special tokens are honoured: "<|endoftext|>" in user text is just text.
      for (const piece of splitForCounting(text, limits)) total += encoder.encode(piece, [], []).length;
      return total;
    },
  };
}

function loadRanks(encoding: TokenizerEncoding): Promise<TiktokenBPE> {
  let load = rankLoads.get(encoding);
  if (!load) {
    load = importRanks(encoding);
    rankLoads.set(encoding, load);
    load.catch(() => rankLoads.delete(encoding));
  }
  return load;
}

/** Loads the one rank file for `options.encoding` (cached per isolate) and returns a counter on it. */
export async function loadTokenCounter(options: TokenCounterOptions = {}): Promise<TokenCounter> {
  const ranks = await loadRanks(options.encoding ?? "cl100k_base");
  return createTokenCounter(ranks, { maxRunBytes: options.maxRunBytes, maxChunkBytes: options.maxChunkBytes });
}

/** Exact, unbounded count: only for trusted, short text (tests and benchmarks compare against it). */
export async function exactTokenCount(text: string, encoding: TokenizerEncoding = "cl100k_base"): Promise<number> {
  return encoderFor(await loadRanks(encoding)).encode(text, [], []).length;
}
