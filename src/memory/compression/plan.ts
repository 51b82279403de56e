/** @module Compression plan: decides when the window is due for summarizing and which prefix goes, keeping tool exchanges whole. */
import type { SessionSnapshot, StoredMessage } from "../model.ts";
import { groupUnits } from "../context/message-units.ts";
import { sumTokens } from "../context/window.ts";
export type CompressionPlan =
  | {
      due: false;
      reason: "below_threshold" | "nothing_to_compress";
      /** Unsummarized window tokens (stored counts). */
      windowTokens: number;
    }
  | {
      due: true;
      reason: "over_threshold" | "forced";
      /** The oldest window messages to fold into the summary, oldest first. */
      prefix: StoredMessage[];
      /** Index of the first window message that stays. */
      keepFrom: number;
      windowTokens: number;
      /** Tokens the new summary replaces: the previous summary plus the prefix. */
      tokensBefore: number;
    };

/**
 * Decides whether to compress and what. Token-driven only: due when the unsummarized window holds
 * more than `maxTokens` (or when forced); how many rounds were played never matters. The prefix is
 * everything but the newest `keep` messages, with the cut moved so a tool call and its results
 * stay on one side: back first (more stays verbatim), forward only when nothing would go otherwise.
 *
 * `window` may be the window's oldest messages only (a head read, see `SessionStore.readHead`,
 * with `windowCount` and `windowTokens` the whole window's): then its last message is the
 * lookahead that tells where a unit ends, and the prefix comes from the messages before it.
 */
export function planCompression(
  snapshot: Pick<SessionSnapshot, "window" | "summary"> & Partial<Pick<SessionSnapshot, "windowCount" | "windowTokens">>,
  options: { maxTokens: number; keep: number },
  flags: { force?: boolean | undefined } = {},
): CompressionPlan {
  const window = snapshot.window;
  const total = snapshot.windowCount ?? window.length;
  const windowTokens = snapshot.windowCount === undefined ? sumTokens(window) : (snapshot.windowTokens ?? 0);
  if (!flags.force && windowTokens <= options.maxTokens) return { due: false, reason: "below_threshold", windowTokens };

  // with a head read, the messages after the lookahead are not known: no cut goes past it
  const end = window.length < total ? window.length - 1 : window.length;
  const wanted = Math.min(end, Math.max(0, total - Math.max(0, Math.floor(options.keep))));
  const cuts = groupUnits(window)
    .map((u) => u.end)
    .filter((c) => c <= end); // a cut after any unit keeps units whole
  const back = cuts.filter((c) => c <= wanted).pop();
  const forward = cuts.find((c) => c > wanted && c < total && wanted >= total - Math.max(0, Math.floor(options.keep)));
  const keepFrom = back !== undefined && back > 0 ? back : (forward ?? 0);
  if (keepFrom === 0) return { due: false, reason: "nothing_to_compress", windowTokens };

  const prefix = window.slice(0, keepFrom);
  return {
    due: true,
    reason: flags.force ? "forced" : "over_threshold",
    prefix,
    keepFrom,
    windowTokens,
    tokensBefore: (snapshot.summary?.tokens ?? 0) + sumTokens(prefix),
  };
}

/** Tokens after / tokens before; 1 when there was nothing before. */
export function compressionRatio(tokensAfter: number, tokensBefore: number): number {
  return tokensBefore > 0 ? tokensAfter / tokensBefore : 1;
}
