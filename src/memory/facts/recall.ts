import { factValue, lastTouched, shouldRetain } from "./lifecycle.ts";
import type { FusionMode, MemoryOptions, RetrievalMode } from "../options.ts";
import type { FactScope, FactStore } from "../ports/facts.ts";
import type { Fact, FactType, RecalledFact, RecallCandidate } from "../model.ts";
import { isEmptyFilter, type FactFilter } from "./filter.ts";
import { intentQueryText } from "./query-intents.ts";

const DAY_MS = 86_400_000;

/** Which scale a candidate's relevance is on; each has its own calibrated gate. */
export type RelevanceScale = "dense" | "sparse" | "hybrid" | "rrf" | "dbsf";

/**
 * Default gate (minimum relevance) per scale, calibrated with `bench/recall-calibrate.ts` on the
 * committed dataset with the dev stack's dense model (a sentence model for English, hashing for
 * CJK): the lowest value that keeps abstention on unrelated queries at or above 90% while cutting
 * as few true hits as possible. Index-fused scores (`rrf`, `dbsf`) carry ranks, not relatedness,
 * so no value separates related from unrelated: their gate only drops empty matches. Another
 * embedding model (Upstash's BGE-M3, OpenAI) scores differently: calibrate the same way
 * (docs/recall.md) and set `RECALL_MIN_SCORE`.
 */
export const DEFAULT_RECALL_GATES: Readonly<Record<RelevanceScale, number>> = Object.freeze({
  dense: 0.1562,
  sparse: 0.1738,
  hybrid: 0.1698,
  rrf: 0,
  dbsf: 0,
});

/**
 * Worker-fused hybrid gates by the query's script ({@link queryCjkShare} interpolates between
 * them): each is the lowest value abstaining on 90% of that script's unrelated queries, since the
 * two scripts' relevances are weighted differently ({@link HYBRID_DENSE_WEIGHTS}) and so sit on
 * different scales. `DEFAULT_RECALL_GATES.hybrid` is the Latin-script gate. A `minScore` set by
 * the caller (`RECALL_MIN_SCORE`) applies to every script as it is.
 */
export const HYBRID_SCRIPT_GATES: Readonly<{ latin: number; cjk: number }> = Object.freeze({ latin: 0.1698, cjk: 0.1898 });

/**
 * Two-level gate: the best candidate must reach `minScore` (does memory know anything about the
 * query at all?); once it does, the others need `minScore x this` (how far below the best a fact
 * may be and still be shown). Measured with the bench (hybrid): floors of 0 to 0.3 recall the same,
 * 0.5 cuts true hits that are worded differently.
 */
export const GATE_FLOOR_RATIO = 0.1;

/**
 * Cosine at which a dense match counts as unrelated (relevance 0): sentence models put unrelated
 * texts around cosine 0.1-0.3, not 0. Calibrated with the gates (0 / 0.1 / 0.2 / 0.3 measured).
 */
export const DENSE_ZERO_COSINE = 0.2;

/** Sparse (BM25 inner product) scores map to 0..1 as 1 - exp(-score / this): 4 -> 0.39, 8 -> 0.63. */
export const SPARSE_SCALE = 8;

/**
 * Share of the dense part in a Worker-fused hybrid relevance (the sparse part has the rest), by the
 * query's script. On the dev stack the dense part of a Latin-script query is a sentence model
 * (English recall from it alone: .85) and that of a CJK query is character hashing (Chinese: .10,
 * against BM25's .75), so each script trusts the part that reads it. A mixed query interpolates
 * by its CJK share. Calibrated with the gates (bench/recall-calibrate.ts, docs/recall.md).
 */
export const HYBRID_DENSE_WEIGHTS: Readonly<{ latin: number; cjk: number }> = Object.freeze({ latin: 0.7, cjk: 0.2 });

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const WORD = /[\p{L}\p{N}]+/gu;
/** A CJK character counts as this share of a word (as the emulator's dense model splits a text). */
const CJK_CHAR_WORDS = 0.6;

/** Share of a text's words written in CJK (Han, Kana, Hangul), 0..1; 0 for a text without words. */
export function queryCjkShare(text: string): number {
  const normalized = text.normalize("NFKC");
  const cjk = (normalized.match(CJK_RUN) ?? []).reduce((n, run) => n + Array.from(run).length, 0) * CJK_CHAR_WORDS;
  const latin = normalized.replace(CJK_RUN, " ").match(WORD)?.length ?? 0;
  return cjk + latin > 0 ? cjk / (cjk + latin) : 0;
}

const byScript = (values: { latin: number; cjk: number }, cjkShare: number): number => {
  const share = clamp01(cjkShare);
  return (1 - share) * values.latin + share * values.cjk;
};

/** The Worker-fused hybrid gate of a query with this CJK share. */
export const hybridGate = (cjkShare: number): number => byScript(HYBRID_SCRIPT_GATES, cjkShare);

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
/** Upstash's normalized cosine (1 + cos) / 2 -> 0..1 with 0 = cosine {@link DENSE_ZERO_COSINE} or less, 1 = identical. */
export const denseRelevance = (score: number) => clamp01((2 * score - 1 - DENSE_ZERO_COSINE) / (1 - DENSE_ZERO_COSINE));
const sparseRelevance = (score: number) => (Number.isFinite(score) && score > 0 ? 1 - Math.exp(-score / SPARSE_SCALE) : 0);

/**
 * Worker-fused hybrid relevance of a dense and a sparse score (a part that did not find the fact
 * counts 0), weighted for a query with this CJK share ({@link HYBRID_DENSE_WEIGHTS}).
 */
export function hybridRelevance(dense: number | undefined, sparse: number | undefined, cjkShare = 0): number {
  const w = byScript(HYBRID_DENSE_WEIGHTS, cjkShare);
  return w * denseRelevance(dense ?? 0.5) + (1 - w) * sparseRelevance(sparse ?? 0);
}

/**
 * Relevance of a candidate in 0..1, 0 = unrelated, on `scale`. Dense and sparse are mapped from
 * their native scales; hybrid is their weighted sum (a part that did not match counts 0); `rrf` /
 * `dbsf` are the index's fused score divided by its largest possible value (ranks, not relatedness).
 */
export function relevanceOf(candidate: RecallCandidate, scale: RelevanceScale, cjkShare = 0): number {
  switch (scale) {
    case "dense":
      return denseRelevance(candidate.dense ?? candidate.similarity);
    case "sparse":
      return sparseRelevance(candidate.sparse ?? candidate.similarity);
    case "hybrid":
      return hybridRelevance(candidate.dense, candidate.sparse, cjkShare);
    case "rrf":
      // two lists, each at most 1 / 60 (rank 0): the best possible fused score maps to 1
      return clamp01(candidate.similarity * 30);
    case "dbsf":
      // two lists, each mapped into about 0..1
      return clamp01(candidate.similarity / 2);
  }
}

/** The scale of a store searching in `mode` with `fusion`. */
export function relevanceScale(mode: RetrievalMode, fusion: FusionMode): RelevanceScale {
  if (mode !== "hybrid") return mode;
  return fusion === "worker" ? "hybrid" : fusion;
}

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

/** Third-person references to the user, and the first-person words facts are stored in. */
const USER_REFERENCES: readonly (readonly [RegExp, string])[] = [
  [/用户的|使用者的/gu, "我的"],
  [/用户|使用者/gu, "我"],
  [/\bthe user's\b/giu, "my"],
  [/\bthe user\b/giu, "I"],
  [/\buser's\b/giu, "my"],
];

/**
 * The text recall searches for: facts are stored in the user's own first-person words ("我叫小明",
 * "I live in Berlin"), while the model or the client often asks about "the user" ("用户叫什么名字?").
 * Those references become first person, so the words the user would have used are matched.
 */
export function recallQueryText(query: string): string {
  let text = query;
  for (const [pattern, replacement] of USER_REFERENCES) text = text.replace(pattern, replacement);
  return text;
}

/** First person as learned facts name the user ("my sister" is "the user's sister", "我妹妹" is "用户的妹妹"). */
const SELF_REFERENCES: readonly (readonly [RegExp, string])[] = [
  [/我们的|我的/gu, "用户的"],
  [/我(?=妹|姐|哥|弟|妈|爸|老公|老婆|丈夫|妻子|男朋友|女朋友|对象|儿子|女儿|孩子|朋友|同事|室友|老板)/gu, "用户的"],
  [/我们|我/gu, "用户"],
  [/\b(?:my|our)\b/giu, "the user's"],
  [/\b(?:i|me|we|us)\b/giu, "the user"],
  [/\bam\b/giu, "is"],
];

/**
 * The wordings recall searches: {@link recallQueryText} (the user's own first-person words, how
 * persisted messages are stored) and, when it reads differently, the same words about "the user"
 * (how learned facts are stored: "The user's sister Mia lives in Lisbon."). Searched as separate
 * wordings of one request, so neither dilutes the other. A question that asks for a relation facts
 * are keyed by ("What do I do for a living?") adds a third wording with that relation's fact words
 * ({@link intentQueryText}), for facts worded too differently from the question to meet it.
 */
export function recallQueryTexts(query: string): [string, ...string[]] {
  const first = recallQueryText(query);
  let third = first;
  for (const [pattern, replacement] of SELF_REFERENCES) third = third.replace(pattern, replacement);
  const texts: [string, ...string[]] = third === first ? [first] : [first, third];
  const intent = intentQueryText(first);
  if (intent !== null) texts.push(intent);
  return texts;
}

/** How many candidates a recall of `k` facts asks the store for: deep enough for the ranking to reorder. */
export const candidateDepth = (k: number): number => Math.min(100, Math.max(k * 3, k + 5));

/** What {@link recallFrom} needs of the options. */
export type RecallOptions = ScoreOptions & Pick<MemoryOptions, "recallMargin" | "retrieval" | "fusion" | "minRecallScore">;

/**
 * One recall: a single store query (deep enough for the ranking to reorder) and
 * {@link selectRecalled} on the mode's scale. Both the context and the search route use it.
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
  const [text, ...also] = recallQueryTexts(query);
  const found = await store.query(scope, {
    text,
    ...(also.length > 0 ? { also } : {}),
    topK: candidateDepth(k),
    types: request.types,
    ...filter,
  });
  // The store filters superseded facts out; a fact that stopped being true is never recalled.
  const candidates = found.filter((c) => c.fact.supersededAt === undefined);
  const outcome = selectRecalled(candidates, {
    k,
    minScore: request.minScore ?? options.minRecallScore,
    scale: relevanceScale(options.retrieval, options.fusion),
    types: request.types,
    cjkShare: queryCjkShare(text),
    now: request.now,
    options,
  });
  return { ...outcome, candidates };
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

/** Longest message, in characters, that may be a follow-up leaning on the conversation before it. */
const FOLLOW_UP_MAX_CHARS = 60;
/** Opens or refers back the way a follow-up does: "and her birthday?", "what about him", "那她的生日呢". */
const FOLLOW_UP_CUE =
  /^\s*(?:and|also|what about|how about|and what about|so)\b|\b(?:she|her|hers|he|him|his|they|them|their|it|its|that|those|there)\b|^\s*(?:那|还有|那么|另外|然后)|[她他它]|那个|那里|这个/iu;

/** Whether `text` is a short follow-up that needs the earlier turns to be understood. */
export function isFollowUp(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && t.length <= FOLLOW_UP_MAX_CHARS && FOLLOW_UP_CUE.test(t);
}

/** How much earlier conversation a follow-up's recall query takes: messages and characters. */
export const FOLLOW_UP_CONTEXT = { messages: 2, chars: 400 } as const;

/**
 * The recall query of a chat turn: the user's message, and for a short follow-up ("and her
 * birthday?") the last {@link FOLLOW_UP_CONTEXT} user/assistant messages before it too, so the
 * person or thing it refers to is searched for as well. `earlier` is oldest first.
 */
export function turnRecallQuery(latest: string, earlier: readonly { role: string; content: string }[]): string {
  if (!isFollowUp(latest)) return latest;
  const picked: string[] = [];
  let chars = 0;
  for (let i = earlier.length - 1; i >= 0 && picked.length < FOLLOW_UP_CONTEXT.messages; i--) {
    const m = earlier[i]!;
    if ((m.role !== "user" && m.role !== "assistant") || m.content.trim() === "") continue;
    const text = m.content.trim().slice(0, FOLLOW_UP_CONTEXT.chars - chars);
    if (text === "") break;
    picked.unshift(text);
    chars += text.length;
  }
  return [...picked, latest].join("\n");
}
