// ioredis-mock compares option keywords case-sensitively ("MATCH", "BEFORE") while clients send
// them in any case (@upstash/redis sends lower case). These tables upper-case the keywords of the
// commands the mock still runs itself, by position, so values that look like keywords are kept.

interface OptionSpec {
  /** Index of the first option argument. */
  from(args: string[]): number;
  /** Keyword -> number of values that follow it. */
  words: Readonly<Record<string, number>>;
}

const SCAN_OPTIONS: OptionSpec = { from: () => 3, words: { MATCH: 1, COUNT: 1, NOVALUES: 0 } };
const afterNumKeys = (at: number) => (args: string[]) => at + 1 + Math.max(0, Number(args[at]) || 0);

const OPTIONS: ReadonlyMap<string, OptionSpec> = new Map([
  ["hscan", SCAN_OPTIONS],
  ["sscan", SCAN_OPTIONS],
  ["zscan", SCAN_OPTIONS],
  ["zinterstore", { from: afterNumKeys(2), words: { WEIGHTS: 0, AGGREGATE: 1, SUM: 0, MIN: 0, MAX: 0 } }],
  ["zdiff", { from: afterNumKeys(1), words: { WITHSCORES: 0 } }],
  ["bitcount", { from: () => 4, words: { BYTE: 0, BIT: 0 } }],
]);

const FIXED_POSITIONS: ReadonlyMap<string, number[]> = new Map([
  ["linsert", [2]],
  ["lmove", [3, 4]],
  ["object", [1]],
]);

/** Returns `args` with the option keywords of `name` in upper case. */
export function normalizeKeywords(name: string, args: string[]): string[] {
  const positions = FIXED_POSITIONS.get(name);
  const options = OPTIONS.get(name);
  if (positions === undefined && options === undefined) return args;
  const out = [...args];
  for (const i of positions ?? []) {
    const arg = out[i];
    if (arg !== undefined) out[i] = arg.toUpperCase();
  }
  if (options !== undefined) {
    for (let i = options.from(out); i < out.length; i++) {
      const upper = (out[i] ?? "").toUpperCase();
      const values = options.words[upper];
      if (values === undefined) continue;
      out[i] = upper;
      i += values;
    }
  }
  return out;
}
