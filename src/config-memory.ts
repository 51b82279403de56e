import { readInt, readNumber, readString, type EnvReader } from "./config-read.ts";
import { DEFAULT_MEMORY_OPTIONS, type BudgetShares, type MemoryOptions } from "./memory/options.ts";

const SHARE_NAMES = ["system", "summary", "facts", "window", "reply"] as const;

/** Memory options from bindings, over the documented defaults in `src/memory/options.ts`. */
export function memoryOptionsFromEnv(read: EnvReader): MemoryOptions {
  const d = DEFAULT_MEMORY_OPTIONS;
  const options: MemoryOptions = {
    ...d,
    window: readInt(read, "MEMORY_WINDOW", d.window, 0, 10_000),
    maxTokens: readInt(read, "MEMORY_MAX_TOKENS", d.maxTokens, 50, 1_000_000),
    keep: readInt(read, "MEMORY_KEEP", d.keep, 0, 1000),
    budget: readInt(read, "CONTEXT_BUDGET", d.budget, 100, 2_000_000),
    shares: readShares(read, d.shares),
    importanceThreshold: readNumber(read, "IMPORTANCE_THRESHOLD", d.importanceThreshold, 0, 1),
    summaryMaxTokens: readInt(read, "SUMMARY_MAX_TOKENS", d.summaryMaxTokens, 20, 100_000),
    archiveLimit: readInt(read, "ARCHIVE_LIMIT", d.archiveLimit, 0, 1_000_000),
    sessionTtlSeconds: readInt(read, "SESSION_TTL_SECONDS", d.sessionTtlSeconds, 60, 31_536_000 * 10),
    recallK: readInt(read, "RECALL_K", d.recallK, 1, 50),
    minRecallScore: readNumber(read, "RECALL_MIN_SCORE", d.minRecallScore, 0, 1),
    factsLabel: readString(read, "FACTS_LABEL") ?? d.factsLabel,
  };
  return options;
}

/** Parses `system=0.15,summary=0.1,...`; unnamed shares keep their defaults; the sum must be <= 1. */
function readShares(read: EnvReader, defaults: BudgetShares): BudgetShares {
  const raw = readString(read, "BUDGET_SHARES");
  if (raw === undefined) return defaults;
  const shares: BudgetShares = { ...defaults };
  for (const part of raw.split(",")) {
    const [name, value] = part.split("=").map((s) => s.trim());
    const share = Number(value);
    if (!name || !(SHARE_NAMES as readonly string[]).includes(name) || !Number.isFinite(share) || share < 0 || share > 1) {
      read.problems.push(`BUDGET_SHARES entry "${part}" must be name=0..1 with name one of ${SHARE_NAMES.join(", ")}`);
      continue;
    }
    shares[name as (typeof SHARE_NAMES)[number]] = share;
  }
  const sum = SHARE_NAMES.reduce((total, name) => total + shares[name], 0);
  if (sum > 1.0001) read.problems.push(`BUDGET_SHARES must sum to at most 1, got ${sum.toFixed(3)}`);
  return shares;
}
