/**
 * @module The context read: the session round trip with the fact recall beside it, then the context
 * assembled from what both returned, within the budget, with degraded parts flagged, recalls counted,
 * traced and metered.
 */
import { UpstreamUnavailable, errorText } from "../errors.ts";
import type { FactFilter } from "../facts/filter.ts";
import { candidateDepth, emptyRecall, recallFrom, type RecallOutcome } from "../facts/recall.ts";
import { isFollowUp, turnRecallQuery } from "../facts/recall-query.ts";
import type { FactType, RecalledFact, SessionRef, SessionSnapshot } from "../model.ts";
import { NO_METRICS, type MetricsRecorder } from "../observe/metrics.ts";
import { NO_TRACE, timed, type TraceRecorder } from "../observe/trace.ts";
import { resolveSessionOptions, type MemoryOptions } from "../options.ts";
import type { TokenCounter } from "../ports/llm.ts";
import type { WindowBound } from "../ports/sessions.ts";
import type { ContextRequest, ContextResult, Degraded, SessionTarget } from "../sessions/requests.ts";
import type { TenantDeps } from "../tenant-deps.ts";
import { assembleContext } from "./assemble.ts";
import { planBudget } from "./budget.ts";
import { windowStats } from "./window.ts";

/** What a fact recall runs on. */
export type RecallDeps = Pick<TenantDeps, "tenant" | "facts" | "options" | "now" | "trace">;

/** What a context read runs on. */
export type ContextReadDeps = RecallDeps & Pick<TenantDeps, "sessions" | "users" | "counter" | "logger" | "background" | "metrics">;

/** What a read for a context of `budget` needs of the window (see WindowBound). */
export function windowBound(options: MemoryOptions, budget: number | undefined): WindowBound {
  const allowance = planBudget(budget ?? options.budget, options.shares).available;
  return { allowance, limit: options.window, importanceThreshold: options.importanceThreshold };
}

/**
 * Before a request that recalls: a fact store that does not fit the deployment refuses it (503
 * naming what to fix) before anything is written, instead of answering degraded. Instant once
 * the store is known to fit.
 */
export async function factsReady(deps: Pick<TenantDeps, "facts" | "options">, request: ContextRequest): Promise<void> {
  if ((request.query?.trim() ?? "") === "" || (request.k ?? deps.options.recallK) <= 0) return;
  await deps.facts?.ready?.();
}

/**
 * One session read, in parallel with one fact query when there is a query and a user. Recalled
 * facts go into the returned messages only. A failed fact query still answers, flagged `degraded`.
 */
export async function readContext(deps: ContextReadDeps, target: SessionTarget, request: ContextRequest): Promise<ContextResult> {
  await factsReady(deps, request);
  const bound = windowBound(deps.options, request.budget);
  const read = timed(deps.trace ?? NO_TRACE, "redis.read", deps.now, deps.sessions.read(target.ref, bound));
  const [, context] = await withRecall(deps, target, read, (snapshot) => snapshot, request);
  return context;
}

/**
 * Runs a session round trip (a read, or a chat turn's append) and the fact recall in parallel,
 * then assembles the context from what both returned.
 */
export async function withRecall<T>(
  deps: ContextReadDeps,
  target: SessionTarget,
  roundTrip: Promise<T>,
  snapshotOf: (value: T) => SessionSnapshot,
  request: ContextRequest,
): Promise<[T, ContextResult]> {
  const { options } = deps;
  const { userId } = target;
  const query = request.query?.trim() ?? "";
  const k = request.k ?? options.recallK;
  const wanted = query !== "" && k > 0 && deps.facts !== null;
  const recall = (text: string, user: string | undefined) =>
    recallOutcome(deps, target, { query: text, k, types: request.types, userId: user, filter: request.filter });
  // Without a user named in the request the session's stored owner is the user: known only after
  // the read, so that recall follows it (a second round trip, only for requests without userId).
  const ownerRecall = async (): Promise<RecallOutcome> => {
    const owner = snapshotOf(await roundTrip).meta?.userId;
    return owner ? recall(query, owner) : emptyRecall(options);
  };
  // A follow-up asked in /chat: its earlier turns come with the session, so the recall follows it.
  const followUpRecall = async (): Promise<RecallOutcome> => {
    const snapshot = snapshotOf(await roundTrip);
    const window = snapshot.window;
    const earlier = window.at(-1)?.content === query ? window.slice(0, -1) : window;
    const user = userId ?? snapshot.meta?.userId;
    return user ? recall(turnRecallQuery(query, earlier), user) : emptyRecall(options);
  };
  const recalling = !wanted
    ? Promise.resolve(emptyRecall(options))
    : request.followUpFromWindow && isFollowUp(query)
      ? followUpRecall()
      : userId
        ? recall(query, undefined)
        : ownerRecall();
  const [session, recalled, counter] = await Promise.allSettled([roundTrip, recalling, deps.counter()]);
  if (session.status === "rejected") throw session.reason;
  if (counter.status === "rejected") throw counter.reason;
  const context = assembleFromReads(deps, {
    ref: target.ref,
    snapshot: snapshotOf(session.value),
    recalled,
    counter: counter.value,
    request,
    wanted,
    userId,
    trace: deps.trace ?? NO_TRACE,
    metrics: deps.metrics ?? NO_METRICS,
  });
  return [session.value, context];
}

/** One recall: what to search for, and for whom. */
export interface RecallQuery {
  query: string;
  k: number;
  types?: FactType[] | undefined;
  /** The user whose facts to search; default the target's user. */
  userId?: string | undefined;
  filter?: FactFilter | undefined;
}

/**
 * Long-term search, relevance first (see `selectRecalled`), with every dropped candidate and its
 * verdict (for traces). Empty without a user or a fact store.
 */
export async function recallOutcome(deps: RecallDeps, target: SessionTarget, recall: RecallQuery): Promise<RecallOutcome> {
  const { facts, options } = deps;
  const { query, k, types, filter } = recall;
  const userId = recall.userId ?? target.userId;
  if (!facts || !userId || k <= 0) return emptyRecall(options);
  const scope = { tenant: deps.tenant, userId };
  const trace = deps.trace ?? NO_TRACE;
  const outcome = await timed(
    trace,
    "vector.query",
    deps.now,
    recallFrom(facts, scope, query, { k, types, filter, now: deps.now(), options }),
  );
  trace.recall({ userId: scope.userId, query, k, topK: candidateDepth(k), types, outcome });
  return outcome;
}

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
function assembleFromReads(deps: ContextReadDeps, reads: ContextReads): ContextResult {
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
function countRecalls(deps: ContextReadDeps, recalled: readonly RecalledFact[], userId: string | undefined): void {
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
