/** @module Turn traces: what recall kept or dropped, context use per part against the budget, and round trips. */
import type { AssembledContext } from "../context/assemble.ts";
import type { DropReason, RecallOutcome } from "../facts/recall.ts";
import type { FactType } from "../model.ts";

/**
 * What memory did for one turn: the recall (every candidate, why it was kept or dropped), what went
 * into the context per part against the budget, the round trips and what degraded. Recorded through
 * a {@link TraceRecorder} the use cases get in their deps; the hooks sit at the boundaries (recall
 * result, context assembly), so the recall policy can change without touching the trace.
 */

/** Why a candidate did or did not reach the context. */
export type CandidateReason = "injected" | "over_budget" | "beyond_k" | "gate_rejected" | "type_filtered" | "expired" | "duplicate";

export interface TraceCandidate {
  id: string;
  text: string;
  type: FactType;
  importance: number;
  /** The index's own score in its retrieval mode. */
  similarity: number;
  /** Calibrated relevance, 0..1 with 0 = unrelated: what the gate compares with `minScore`. */
  relevance: number;
  /** Relevance plus the bounded tie-break (0 when the candidate was dropped before scoring). */
  score: number;
  /** The relevance gate's verdict. */
  gate: "pass" | "reject";
  kept: boolean;
  reason: CandidateReason;
}

export interface TraceRecall {
  query: string;
  /** The relevance scale of the retrieval mode: dense, sparse, hybrid (Worker-fused), rrf or dbsf. */
  mode: string;
  k: number;
  topK: number;
  minScore: number;
  types: FactType[] | null;
  /** Queries the recall asked the index: its wordings on the dense and the sparse part (absent when the store does not say). */
  queryParts?: number | undefined;
  candidates: TraceCandidate[];
}

export interface TracePart {
  tokens: number;
  /** The part's cap from the budget (the window: what the others left). */
  cap: number;
}

export interface TraceContext {
  budget: { total: number; reserve: number; available: number; used: number; overBudget: boolean };
  system: TracePart & { messages: number };
  summary: (TracePart & { version: number; covered: number; method: string; truncated: boolean }) | null;
  /** True when there was a summary but none of it fitted. */
  summaryOmitted: boolean;
  facts: TracePart & { ids: string[]; omitted: number };
  window: TracePart & { messages: number; ids: string[]; omitted: number };
  /** system + summary + facts + window. */
  total: number;
}

export interface TraceRoundTrip {
  /** "redis.read", "redis.append", "vector.query", "llm". */
  name: string;
  ms: number;
  ok: boolean;
}

export type TraceKind = "context" | "chat" | "proxy";

export interface Trace {
  traceId: string;
  kind: TraceKind;
  sessionId: string;
  userId: string | null;
  requestId: string;
  /** When the turn started, epoch ms. */
  at: number;
  recall: TraceRecall | null;
  context: TraceContext | null;
  roundTrips: TraceRoundTrip[];
  degraded: string[];
}

/** The recall as it came out of the ranking: its outcome, with the raw candidates it looked at. */
export interface RecallObservation {
  /** Whose facts were searched: the trace then holds that user's texts (an erase finds it by them). */
  userId?: string | undefined;
  query: string;
  k: number;
  topK: number;
  types?: readonly FactType[] | undefined;
  outcome: RecallOutcome;
}

/** Where a use case reports what it did; every method is a no-op on a recorder that is off. */
export interface TraceRecorder {
  readonly active: boolean;
  recall(observation: RecallObservation): void;
  context(context: AssembledContext, degraded: readonly string[]): void;
  roundTrip(name: string, ms: number, ok: boolean): void;
}

/** The recorder of a request nothing traces. */
export const NO_TRACE: TraceRecorder = { active: false, recall: () => undefined, context: () => undefined, roundTrip: () => undefined };

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

const DROP_REASONS: Record<DropReason, CandidateReason> = {
  duplicate: "duplicate",
  type: "type_filtered",
  expired: "expired",
  below_gate: "gate_rejected",
  beyond_k: "beyond_k",
};

/**
 * Every candidate the store returned, in its order, with the recall's own verdict: kept (injected,
 * unless the context later runs out of budget) or dropped with the recall's reason.
 */
export function explainRecall(outcome: RecallOutcome): TraceCandidate[] {
  const kept = new Map(outcome.facts.map((r) => [r.fact.id, r]));
  const dropped = [...outcome.dropped];
  const seen = new Set<string>();
  const out: TraceCandidate[] = [];
  for (const { fact, similarity } of outcome.candidates ?? []) {
    const ranked = kept.get(fact.id);
    if (ranked && !seen.has(fact.id)) {
      seen.add(fact.id);
      out.push({
        id: fact.id,
        text: fact.text,
        type: fact.type,
        importance: fact.importance,
        similarity: round4(similarity),
        relevance: round4(ranked.relevance),
        score: round4(ranked.score),
        gate: "pass",
        kept: true,
        reason: "injected",
      });
      continue;
    }
    seen.add(fact.id);
    // Dropped verdicts are in the store's order too: take the next one for this id.
    const at = dropped.findIndex((d) => d.id === fact.id);
    const verdict = at >= 0 ? dropped.splice(at, 1)[0] : undefined;
    if (!verdict) continue;
    out.push({
      id: fact.id,
      text: verdict.text,
      type: verdict.type,
      importance: fact.importance,
      similarity: round4(similarity),
      relevance: round4(verdict.relevance),
      score: round4(verdict.score),
      gate: verdict.passedGate ? "pass" : "reject",
      kept: false,
      reason: verdict.reason ? DROP_REASONS[verdict.reason] : "beyond_k",
    });
  }
  return out;
}

/** The budget per part of an assembled context, and which kept candidates it left out. */
function contextPart(context: AssembledContext): TraceContext {
  const { budget, tokens } = context;
  const factIds = context.facts.map((r) => r.fact.id);
  const windowMessages = context.windowIds.length;
  return {
    budget: { total: budget.total, reserve: budget.reserve, available: budget.available, used: budget.used, overBudget: budget.overBudget },
    system: {
      tokens: tokens.system,
      cap: budget.caps.system,
      messages: context.messages.length - windowMessages - (context.summary ? 1 : 0) - (factIds.length > 0 ? 1 : 0),
    },
    summary: context.summary
      ? {
          tokens: tokens.summary,
          cap: budget.caps.summary,
          version: context.summary.version,
          covered: context.summary.covered,
          method: context.summary.method,
          truncated: context.summary.truncated,
        }
      : null,
    summaryOmitted: context.omitted.summary,
    facts: { tokens: tokens.facts, cap: budget.caps.facts, ids: factIds, omitted: context.omitted.facts },
    window: {
      tokens: tokens.window,
      cap: budget.windowAllowance,
      messages: windowMessages,
      ids: context.windowIds,
      omitted: context.omitted.window,
    },
    total: tokens.total,
  };
}

/** Records one turn's trace once `begin` armed it; a recorder never begun records nothing. */
export class TurnTrace implements TraceRecorder {
  #trace: Trace | null = null;

  get active(): boolean {
    return this.#trace !== null;
  }

  get traceId(): string | null {
    return this.#trace?.traceId ?? null;
  }

  begin(meta: { traceId: string; kind: TraceKind; sessionId: string; userId?: string | undefined; requestId: string; at: number }): void {
    const { userId, ...rest } = meta;
    this.#trace = { ...rest, userId: userId ?? null, recall: null, context: null, roundTrips: [], degraded: [] };
  }

  recall(observation: RecallObservation): void {
    if (!this.#trace) return;
    const { outcome } = observation;
    if (observation.userId !== undefined) this.#trace.userId ??= observation.userId;
    this.#trace.recall = {
      query: observation.query,
      mode: outcome.gate.scale,
      k: observation.k,
      topK: observation.topK,
      minScore: outcome.gate.minScore,
      types: observation.types && observation.types.length > 0 ? [...observation.types] : null,
      ...(outcome.queryParts !== undefined ? { queryParts: outcome.queryParts } : {}),
      candidates: explainRecall(outcome),
    };
  }

  context(context: AssembledContext, degraded: readonly string[]): void {
    const trace = this.#trace;
    if (!trace) return;
    trace.context = contextPart(context);
    trace.degraded = [...new Set([...trace.degraded, ...degraded])];
    const injected = new Set(context.facts.map((r) => r.fact.id));
    // Kept by the ranking yet not in the context: the facts part ran out of budget.
    for (const candidate of trace.recall?.candidates ?? []) {
      if (candidate.kept && !injected.has(candidate.id)) {
        candidate.kept = false;
        candidate.reason = "over_budget";
      }
    }
  }

  roundTrip(name: string, ms: number, ok: boolean): void {
    this.#trace?.roundTrips.push({ name, ms: Math.max(0, Math.round(ms)), ok });
  }

  /** The trace so far; null when it was never begun. */
  snapshot(): Trace | null {
    return this.#trace ? structuredClone(this.#trace) : null;
  }
}

/** Times `work` as one round trip of `trace` (the clock is the runtime's: I/O moves it in a Worker). */
export async function timed<T>(trace: TraceRecorder, name: string, now: () => number, work: Promise<T>): Promise<T> {
  if (!trace.active) return work;
  const started = now();
  try {
    const value = await work;
    trace.roundTrip(name, now() - started, true);
    return value;
  } catch (err) {
    trace.roundTrip(name, now() - started, false);
    throw err;
  }
}
