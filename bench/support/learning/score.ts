/** @module The learning bench's tally per Worker or extractor, how a line counts as learned, and its verbose log and percentages. */
import type { DatasetLine } from "./dataset.ts";

const VERBOSE = process.env.VERBOSE === "1";

/** With VERBOSE=1: every stored fact and every miss. */
export const log = (...parts: unknown[]): void => {
  if (VERBOSE) console.log(...parts);
};

export interface Tally {
  factLines: number;
  learned: number;
  /** Learned facts stored (episodes apart). */
  stored: number;
  noise: number;
  /** Episodes stored: the lines kept as said. */
  episodes: number;
  questions: number;
  hits: number;
  unrelated: number;
  abstained: number;
  contradictions: number;
  newerWins: number;
}

export const emptyTally = (): Tally => ({
  factLines: 0,
  learned: 0,
  stored: 0,
  noise: 0,
  episodes: 0,
  questions: 0,
  hits: 0,
  unrelated: 0,
  abstained: 0,
  contradictions: 0,
  newerWins: 0,
});
export const has = (text: string, word: string): boolean => text.toLowerCase().includes(word.toLowerCase());
export const learnedIn = (line: DatasetLine, texts: readonly string[]): boolean =>
  (line.keywords ?? []).every((k) => texts.some((t) => has(t, k)));
export const pct = (n: number, d: number): string => (d === 0 ? "  n/a" : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
