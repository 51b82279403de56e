/** Ranking and selection of recalled facts: the gate, the bounded tie-break, and one recall from the fact store. */
import { factValue, lastTouched, shouldRetain } from "./lifecycle.ts";
import type { MemoryOptions } from "../options.ts";
import type { FactScope, FactStore } from "../ports/facts.ts";
import type { Fact, FactType, RecalledFact, RecallCandidate, RelevanceScale } from "../model.ts";
import { shownCandidates } from "./fact-guard.ts";
import { isEmptyFilter, type FactFilter } from "./filter.ts";
import { recallQuery } from "./recall-query.ts";
import {
  clamp01,
  DEFAULT_RECALL_GATES,
  GATE_FLOOR_RATIO,
  hybridGate,
  queryCjkShare,
  queryGate,
  relevanceOf,
  relevanceScale,
} from "./relevance.ts";

const DAY_MS = 86_400_000;

type ScoreOptions = Pick<MemoryOptions, "factPolicies" | "decayFloor" | "recencyHalfLifeDays" | "lowImportance">;

/**
 * Tie-break in 0..1: 0.7 x value (importance, type decay, use) + 0.3 x recency (halves every
 * `recencyHalfLifeDays` since the fact was last written or recalled).
 */
export function tieBreak(fact: Fact, now: number, options: ScoreOptions): number {
  const days = Math.max(0, now - lastTouched(fact)) / DAY_MS;
  const recency = 0.5 ** (days / Math.max(1e-9, options.recencyHalfLifeDays));
  return clamp01(0.7 * factValue(fact, now, options) + 0.3 * recency);
}

/**
 * Final score = relevance + margin x tie-break. The tie-break is at most `margin`, so it reorders
 * facts whose relevance differs by less than `margin` and never lifts a fact over one that is more
 * than `margin` more relevant.
 */
export function scoreRecall(input: { relevance: number; fact: Fact; now: number; margin: number; options: ScoreOptions }): number {
  const margin = Math.max(0, input.margin);
  return clamp01(input.relevance) + margin * tieBreak(input.fact, input.now, input.options);
}

/** Why a candidate did not make it. */
export type DropReason = "duplicate" | "type" | "expired" | "below_gate" | "beyond_k";

/** One candidate as recall judged it (for traces and debugging). */
export interface CandidateVerdict {
  id: string;
  text: string;
  type: FactType;
  /** 0..1 on the scale's calibration, 0 = unrelated. */
  relevance: number;
  /** Whether the relevance reached the gate. */
  passedGate: boolean;
  /** Relevance plus the bounded tie-break (0 when it was never scored). */
  score: number;
  /** Absent for a kept candidate. */
  reason?: DropReason;
}

/** What a recall returns: the kept facts best first, and every candidate with its verdict. */
export interface RecallOutcome {
  facts: RecalledFact[];
  /** Candidates that were not kept, best score first. */
  dropped: CandidateVerdict[];
  /** The gate applied and the scale it is on. */
  gate: { minScore: number; scale: RelevanceScale; margin: number };
  /** What the store returned, in its order (a trace shows their raw scores). */
  candidates?: readonly RecallCandidate[] | undefined;
  /** Queries the recall asked the index (its batch's parts: a wording on the dense or the sparse part); absent when the store does not say. */
  queryParts?: number | undefined;
}

export interface RankOptions {
  /** How many to return. */
  k: number;
  /** The relevance gate; default {@link DEFAULT_RECALL_GATES} of the scale. */
  minScore?: number | undefined;
  /** Scale of the candidates' scores. Default `dense`. */
  scale?: RelevanceScale | undefined;
  /** Near-tie margin. Default `options.recallMargin`. */
  margin?: number | undefined;
  /** Only these types, when given. */
  types?: readonly FactType[] | undefined;
  /** Share of the query's words in CJK ({@link queryCjkShare}): picks the hybrid weights and gate. Default 0. */
  cjkShare?: number | undefined;
  now: number;
  options: ScoreOptions & Pick<MemoryOptions, "recallMargin">;
}

/**
 * Relevance first: a candidate passes the gate or is dropped (the best live candidate must reach
 * `minScore`, the others `minScore x GATE_FLOOR_RATIO`; none pass when the best does not); survivors
 * are ordered by {@link scoreRecall} (relevance, with importance, use and recency breaking near-ties
 * within the margin) and the best `k` kept. Facts the sweep would delete are dropped first
 * (`shouldRetain`, the cron's rule), so recall never shows what the sweep removes.
 */
export function selectRecalled(candidates: readonly RecallCandidate[], rank: RankOptions): RecallOutcome {
  const scale = rank.scale ?? "dense";
  const cjkShare = rank.cjkShare ?? 0;
  const minScore = rank.minScore ?? (scale === "hybrid" ? hybridGate(cjkShare) : DEFAULT_RECALL_GATES[scale]);
  const margin = rank.margin ?? rank.options.recallMargin;
  const types = rank.types && rank.types.length > 0 ? new Set(rank.types) : null;
  const seen = new Set<string>();
  const dropped: CandidateVerdict[] = [];
  const passed: (RecalledFact & { verdict: CandidateVerdict })[] = [];
  const relevances = candidates.map((c) => relevanceOf(c, scale, cjkShare));
  const live = candidates.filter((c) => (!types || types.has(c.fact.type)) && shouldRetain(c.fact, rank.now, rank.options));
  const best = Math.max(0, ...live.map((c) => relevances[candidates.indexOf(c)] ?? 0));
  // Nothing reaches the gate: nothing passes. Otherwise facts down to the floor may follow the best.
  const floor = best >= minScore ? Math.max(1e-9, minScore * GATE_FLOOR_RATIO) : Number.POSITIVE_INFINITY;
  candidates.forEach((candidate, i) => {
    const { fact } = candidate;
    const relevance = relevances[i] ?? 0;
    const verdict: CandidateVerdict = {
      id: fact.id,
      text: fact.text,
      type: fact.type,
      relevance,
      passedGate: relevance >= floor,
      score: 0,
    };
    if (seen.has(fact.id)) dropped.push({ ...verdict, reason: "duplicate" });
    else if (types && !types.has(fact.type)) dropped.push({ ...verdict, reason: "type" });
    else if (!shouldRetain(fact, rank.now, rank.options)) dropped.push({ ...verdict, reason: "expired" });
    else {
      seen.add(fact.id);
      verdict.score = scoreRecall({ relevance, fact, now: rank.now, margin, options: rank.options });
      if (!verdict.passedGate) dropped.push({ ...verdict, reason: "below_gate" });
      else passed.push({ fact, similarity: candidate.similarity, relevance, score: verdict.score, verdict });
    }
  });
  passed.sort((a, b) => b.score - a.score || b.relevance - a.relevance || a.fact.id.localeCompare(b.fact.id));
  const k = Math.max(0, Math.floor(rank.k));
  for (const p of passed.slice(k)) dropped.push({ ...p.verdict, reason: "beyond_k" });
  dropped.sort((a, b) => b.score - a.score || b.relevance - a.relevance);
  const facts = passed.slice(0, k).map(({ fact, similarity, relevance, score }) => ({ fact, similarity, relevance, score }));
  return { facts, dropped, gate: { minScore, scale, margin } };
}

/** The kept facts of {@link selectRecalled}. */
export function rankRecalled(candidates: readonly RecallCandidate[], rank: RankOptions): RecalledFact[] {
  return selectRecalled(candidates, rank).facts;
}

/** How many candidates a recall of `k` facts asks the store for: deep enough for the ranking to reorder. */
export const candidateDepth = (k: number): number => Math.min(100, Math.max(k * 3, k + 5));

/** What {@link recallFrom} needs of the options. */
export type RecallOptions = ScoreOptions &
  Pick<MemoryOptions, "recallMargin" | "minRecallScore" | "redact"> &
  Partial<Pick<MemoryOptions, "impersonalGate">>;

/**
 * One recall: a single store query (deep enough for the ranking to reorder) and
 * {@link selectRecalled} on the scale the store says its scores are on. Both the context and the
 * search route use it. Texts are redacted as `options.redact` says (see `shownFact`).
 */
export async function recallFrom(
  store: FactStore,
  scope: FactScope,
  query: string,
  request: {
    k: number;
    types?: FactType[] | undefined;
    filter?: FactFilter | undefined;
    minScore?: number | undefined;
    now: number;
    options: RecallOptions;
  },
): Promise<RecallOutcome> {
  const { k, options } = request;
  const filter = request.filter && !isEmptyFilter(request.filter) ? { filter: request.filter } : {};
  const { texts, sparseText } = recallQuery(query);
  const [text, ...also] = texts;
  const {
    scale,
    candidates: found,
    queries,
  } = await store.query(scope, {
    text,
    ...(also.length > 0 ? { also } : {}),
    sparseText,
    topK: candidateDepth(k),
    types: request.types,
    ...filter,
  });
  // The store filters superseded facts out; a fact that stopped being true is never recalled.
  // A fact stored with a secret (before redaction was on) is shown redacted, or not at all.
  const candidates = shownCandidates(
    found.filter((c) => c.fact.supersededAt === undefined),
    options.redact,
  );
  const outcome = selectRecalled(candidates, {
    k,
    minScore: request.minScore ?? options.minRecallScore ?? (options.impersonalGate ? queryGate(text, scale) : undefined),
    scale,
    types: request.types,
    cjkShare: queryCjkShare(text),
    now: request.now,
    options,
  });
  return { ...outcome, candidates, ...(queries !== undefined ? { queryParts: queries } : {}) };
}

/** The outcome of a recall that did not search (no query, no user or no fact store). */
export function emptyRecall(options: Pick<MemoryOptions, "recallMargin" | "retrieval" | "fusion" | "minRecallScore">): RecallOutcome {
  const scale = relevanceScale(options.retrieval, options.fusion);
  return {
    facts: [],
    dropped: [],
    gate: { minScore: options.minRecallScore ?? DEFAULT_RECALL_GATES[scale], scale, margin: options.recallMargin },
  };
}
