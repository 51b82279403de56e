import type { AssembledContext } from "./context.ts";
import { scoreRecall } from "./facts.ts";
import { shouldRetain } from "./lifecycle.ts";
import type { MemoryOptions } from "./options.ts";
import type { Fact, FactType, RecalledFact } from "./types.ts";

/**
 * What memory did for one turn: the recall (every candidate, why it was kept or dropped), what went
 * into the context per part against the budget, the round trips and what degraded. Recorded through
 * a {@link TraceRecorder} the use cases get in their deps; the hooks sit at the boundaries (recall
 * result, context assembly), so the recall policy can change without touching the trace.
 */

/** Why a candidate did or did not reach the context. */
export type CandidateReason =
  | "injected"
  | "over_budget"
  | "beyond_k"
  | "below_min_score"
  | "gate_rejected"
  | "type_filtered"
  | "expired"
  | "duplicate";

export interface TraceCandidate {
  id: string;
  text: string;
  type: FactType;
  importance: number;
  /** The store's relevance, 0..1. */
  similarity: number;
  /** The ranking score (0 when the candidate was dropped before scoring). */
  score: number;
  /** The recall gate's verdict; null when the recall has no gate. */
  gate: "pass" | "reject" | null;
  kept: boolean;
  reason: CandidateReason;
}

export interface TraceRecall {
  query: string;
  /** How candidates were found ("semantic": the fact store's similarity search). */
  mode: string;
  k: number;
  topK: number;
  minScore: number;
  types: FactType[] | null;
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

/** The recall as it came out of the ranking, with the raw candidates it looked at. */
export interface RecallObservation {
  query: string;
  mode: string;
  k: number;
  topK: number;
  types?: readonly FactType[] | undefined;
  candidates: readonly { fact: Fact; similarity: number }[];
  /** The ranking's result, best first. */
  kept: readonly RecalledFact[];
  now: number;
  options: Pick<MemoryOptions, "factPolicies" | "decayFloor" | "recencyHalfLifeDays" | "minRecallScore">;
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

/**
 * Why each candidate the ranking did not keep was dropped, checked in the ranking's own order
 * (duplicate, type, retention, score, k). Kept candidates are marked kept; the context later tells
 * whether they were injected or left out for lack of budget.
 */
export function explainRecall(observation: RecallObservation): TraceCandidate[] {
  const { options, now } = observation;
  const kept = new Map(observation.kept.map((r) => [r.fact.id, r]));
  const types = observation.types && observation.types.length > 0 ? new Set(observation.types) : null;
  const seen = new Set<string>();
  return observation.candidates.map(({ fact, similarity }) => {
    const base = { id: fact.id, text: fact.text, type: fact.type, importance: fact.importance, similarity: round4(similarity), gate: null };
    const ranked = kept.get(fact.id);
    if (ranked && !seen.has(fact.id)) {
      seen.add(fact.id);
      return { ...base, score: round4(ranked.score), kept: true, reason: "injected" as const };
    }
    const drop = (reason: CandidateReason, score = 0): TraceCandidate => ({ ...base, score: round4(score), kept: false, reason });
    if (seen.has(fact.id)) return drop("duplicate");
    seen.add(fact.id);
    if (types && !types.has(fact.type)) return drop("type_filtered");
    if (!shouldRetain(fact, now, options)) return drop("expired");
    const score = scoreRecall({ similarity, fact, now, options });
    return drop(score < options.minRecallScore ? "below_min_score" : "beyond_k", score);
  });
}

/** The budget per part of an assembled context, and which kept candidates it left out. */
function contextPart(context: AssembledContext): TraceContext {
  const { budget, tokens } = context;
  const factIds = context.facts.map((r) => r.fact.id);
  const windowMessages = context.windowIds.length;
  return {
    budget: { total: budget.total, reserve: budget.reserve, available: budget.available, used: budget.used, overBudget: budget.overBudget },
    system: { tokens: tokens.system, cap: budget.caps.system, messages: context.messages.length - windowMessages - (context.summary ? 1 : 0) - (factIds.length > 0 ? 1 : 0) },
    summary: context.summary
      ? { tokens: tokens.summary, cap: budget.caps.summary, version: context.summary.version, covered: context.summary.covered, method: context.summary.method, truncated: context.summary.truncated }
      : null,
    summaryOmitted: context.omitted.summary,
    facts: { tokens: tokens.facts, cap: budget.caps.facts, ids: factIds, omitted: context.omitted.facts },
    window: { tokens: tokens.window, cap: budget.windowAllowance, messages: windowMessages, ids: context.windowIds, omitted: context.omitted.window },
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
    this.#trace.recall = {
      query: observation.query,
      mode: observation.mode,
      k: observation.k,
      topK: observation.topK,
      minScore: observation.options.minRecallScore,
      types: observation.types && observation.types.length > 0 ? [...observation.types] : null,
      candidates: explainRecall(observation),
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
