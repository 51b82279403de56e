/**
 * Writes each rank table with its hash built in (`src/llm/ranks/<encoding>.bin`, git-ignored) from
 * the generated base64 modules, for Worker builds to bundle as `Data` modules (see
 * src/llm/tokenizer.ts). wrangler runs this in its `[build]` step and the test setup before the
 * workers pool starts; a file is rewritten only when its bytes change.
 *
 *   node --import tsx scripts/rank-binaries.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { packHashedTable, type RankTableSource } from "../src/llm/bpe.ts";

export const RANK_ENCODINGS = ["cl100k_base", "o200k_base"] as const;

/** The path of an encoding's binary. */
export const rankBinaryPath = (encoding: string): string => fileURLToPath(new URL(`../src/llm/ranks/${encoding}.bin`, import.meta.url));

/** Writes the binaries that are missing or stale; returns the paths written. */
export async function writeRankBinaries(): Promise<string[]> {
  const written: string[] = [];
  for (const encoding of RANK_ENCODINGS) {
    const source = ((await import(`../src/llm/ranks/${encoding}.ts`)) as { default: RankTableSource }).default;
    const bytes = packHashedTable(source);
    const path = rankBinaryPath(encoding);
    let current: Buffer | null = null;
    try {
      current = readFileSync(path);
    } catch {
      // not written yet
    }
    if (current && Buffer.compare(current, bytes) === 0) continue;
    writeFileSync(path, bytes);
    written.push(path);
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const written = await writeRankBinaries();
  if (written.length > 0) console.log(`rank tables: wrote ${written.join(", ")}`);
}
