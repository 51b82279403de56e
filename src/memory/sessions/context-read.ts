/**
 * @module A context from what one read returned: the session snapshot and the recall that ran beside
 * it, assembled within the budget, with degraded parts flagged, recalls counted, traced and metered.
 */
import { UpstreamUnavailable, errorText } from "../errors.ts";
import { assembleContext } from "../context/assemble.ts";
import { windowStats } from "../context/window.ts";
import { emptyRecall, type RecallOutcome } from "../facts/recall.ts";
import type { RecalledFact, SessionRef, SessionSnapshot } from "../model.ts";
import type { MetricsRecorder } from "../observe/metrics.ts";
import type { TraceRecorder } from "../observe/trace.ts";
import { resolveSessionOptions } from "../options.ts";
import type { TokenCounter } from "../ports/llm.ts";
import type { TenantDeps } from "../tenant-deps.ts";
import type { ContextRequest, ContextResult, Degraded } from "./requests.ts";

/** What one read brought back, and who and what it was for. */
export interface ContextReads {
  ref: SessionRef;
  snapshot: SessionSnapshot;
  recalled: PromiseSettledResult<RecallOutcome>;
  counter: TokenCounter;
  request: ContextRequest;
  /** Whether the request asked for a recall at all (for the metrics). */
  wanted: boolean;
  /** The user the request named; else the session's stored owner counts the recalls. */
  userId: string | undefined;
  trace: TraceRecorder;
  metrics: MetricsRecorder;
}

/**
 * A failed recall degrades the answer (flagged, logged) unless the fact store does not fit the
 * deployment: that is a 503 naming what to fix, not an outage to answer around.
 */
export function assembleFromReads(deps: TenantDeps, reads: ContextReads): ContextResult {
  const { ref, snapshot, recalled, counter, request, wanted, userId, trace, metrics } = reads;
  const { options } = deps;
  const degraded: Degraded[] = [];
  // A store that does not fit the deployment is not an outage to answer around: say what to fix.
  if (recalled.status === "rejected" && recalled.reason instanceof UpstreamUnavailable && recalled.reason.reason === "not_configured")
    throw recalled.reason;
  if (recalled.status === "rejected") {
    degraded.push("facts");
    deps.logger.warn("fact recall failed; answering without facts", {
      session: ref.sessionId,
      error: errorText(recalled.reason),
    });
  }
  const resolved = resolveSessionOptions(options, snapshot.settings);
  const context = assembleContext({
    system: snapshot.system,
    summary: snapshot.summary,
    facts: recalled.status === "fulfilled" ? recalled.value.facts : [],
    sessionId: ref.sessionId,
    window: snapshot.window,
    options: resolved,
    budget: request.budget,
    counter,
  });
  // a bounded read left the older messages in Redis: they are omitted as well
  const unread = (snapshot.windowCount ?? snapshot.window.length) - snapshot.window.length;
  const omitted = { ...context.omitted, window: context.omitted.window + unread };
  if (request.countRecalls !== false) countRecalls(deps, context.facts, userId ?? snapshot.meta?.userId);
  trace.context({ ...context, omitted }, degraded);
  metrics.count("contextReads");
  if (wanted) metrics.count("recallQueries");
  if (context.facts.length > 0) metrics.count("recallHits");
  const recall = recalled.status === "fulfilled" ? recalled.value : emptyRecall(options);
  return { ...context, omitted, stats: windowStats(snapshot, resolved), degraded, recall };
}

/** Recalls that reached a context are counted in Redis (merged into Vector by the cron). */
function countRecalls(deps: TenantDeps, recalled: readonly RecalledFact[], userId: string | undefined): void {
  const scope = deps.facts && userId ? { tenant: deps.tenant, userId } : null;
  if (!scope || recalled.length === 0) return;
  deps.background(
    deps.users.recordRecalls(
      scope,
      recalled.map((r) => r.fact.id),
      deps.now(),
    ),
  );
}
