/**
 * @module One compression pass over a session: read the oldest part of the window, plan, summarize
 * under a lock, and commit by compare-and-set so no message is ever lost.
 */
import { errorText } from "../errors.ts";
import type { TenantDeps } from "../tenant-deps.ts";
import type { HeadLimits } from "../ports/sessions.ts";
import type { SessionRef, SessionTotals } from "../model.ts";
import type { CompressResult } from "../sessions/requests.ts";
import type { MetricsRecorder } from "../observe/metrics.ts";
import { resolveSessionOptions } from "../options.ts";
import { planCompression } from "./plan.ts";
import { produceSummary } from "./rolling-summary.ts";

/**
 * What one compression pass reads and folds at most, so a pass costs the same whatever the
 * window's length; a window still over its threshold after it gets the next pass (`more`).
 */
export const COMPRESSION_PASS: HeadLimits = { maxTokens: 16_000, maxMessages: 1000 };

/**
 * Due when the window is over its threshold and holds something to fold: a compression cuts
 * before the `keep` newest messages, or, when that leaves nothing, after the oldest unit.
 */
export function compressionDueFor(totals: SessionTotals, options: { maxTokens: number }): boolean {
  return totals.windowTokens > options.maxTokens && totals.windowCount > 1;
}

/** What a compression pass runs on. */
export type CompressionDeps = Pick<
  TenantDeps,
  "sessions" | "options" | "logger" | "newId" | "now" | "counter" | "summarizer" | "fallbackSummarizer"
>;

/**
 * Folds the window prefix into the rolling summary when the window is over its token threshold
 * (or when forced). The lock only saves duplicate summarizer calls; the compare-and-set commit
 * is what keeps every message: if the session changed meanwhile, nothing is committed. After
 * `summaryFailureLimit` consecutive failures the extractive summarizer takes over, so a failing
 * LLM cannot let the window grow without bound.
 */
export async function runCompressionPass(
  deps: CompressionDeps,
  ref: SessionRef,
  metrics: MetricsRecorder,
  flags: { force?: boolean | undefined } = {},
): Promise<CompressResult> {
  const { sessions, options, logger } = deps;
  const snapshot = await sessions.readHead(ref, COMPRESSION_PASS);
  if (!snapshot.meta) return { compressed: false, reason: "nothing_to_compress" };
  const resolved = resolveSessionOptions(options, snapshot.settings);
  const plan = planCompression(snapshot, resolved, flags);
  if (!plan.due) return { compressed: false, reason: plan.reason };

  const token = deps.newId();
  if (!(await sessions.acquireLock(ref, token, options.lockTtlMs))) return { compressed: false, reason: "locked" };
  try {
    const limit = resolved.summaryFailureLimit;
    const fallback = limit > 0 && snapshot.meta.summaryFailures >= limit;
    const summary = await produceSummary({
      summarizer: fallback ? deps.fallbackSummarizer : deps.summarizer,
      counter: await deps.counter(),
      previous: snapshot.summary,
      prefix: plan.prefix,
      maxTokens: resolved.summaryMaxTokens,
      tokensBefore: plan.tokensBefore,
      now: deps.now(),
      onWarning: (message, data) => logger.warn(message, { session: ref.sessionId, ...data }),
    });
    if ("error" in summary) {
      metrics.count("summarizerFailures");
      const failures = await sessions.recordSummaryFailure(ref);
      logger.error("summarizer failed; session unchanged", { session: ref.sessionId, error: summary.error, failures });
      return { compressed: false, reason: "summarizer_failed", error: summary.error };
    }
    const outcome = await sessions.commitCompression(ref, {
      epoch: snapshot.meta.epoch,
      expectedVersion: snapshot.summary?.version ?? 0,
      prefixIds: plan.prefix.map((m) => m.id),
      summary,
      archiveLimit: options.archiveLimit,
      ttlSeconds: resolved.sessionTtlSeconds,
    });
    if (!outcome.committed) {
      logger.debug("compression not committed", { session: ref.sessionId, reason: outcome.reason });
      return { compressed: false, reason: outcome.reason };
    }
    metrics.compression(summary.lastRatio);
    const left = plan.windowTokens - outcome.removedTokens;
    return {
      compressed: true,
      reason: plan.reason,
      more: flags.force ? left > 0 && plan.keepFrom < (snapshot.windowCount ?? 0) - resolved.keep : left > resolved.maxTokens,
      removed: plan.prefix.length,
      removedTokens: outcome.removedTokens,
      summaryTokens: summary.tokens,
      ratio: summary.lastRatio,
      version: summary.version,
      method: summary.method,
    };
  } finally {
    await sessions.releaseLock(ref, token).catch((error: unknown) => {
      logger.warn("lock release failed; it expires on its own", { session: ref.sessionId, error: errorText(error) });
    });
  }
}
