/** @module How relevant a candidate is, per scale and query script, and the calibrated gate of each scale and query. */
import type { FusionMode, RetrievalMode } from "../options.ts";
import type { RecallCandidate, RelevanceScale } from "../model.ts";
import { queryAboutUser } from "./query-about-user.ts";

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
 * Worker-fused hybrid gates, by script, of a query that is not about the user ({@link queryAboutUser}:
 * "Translate good morning into Spanish", "帮我写一封邮件", "Who wrote Hamlet?"). Such a query meets a
 * memory by topic only (a programmer's "I write code in Neovim" and "Write a Python function"), so
 * it must match more closely. Each is the lowest value at which every persona of the committed
 * dataset abstains on at least 90% of that script's unrelated queries that are not about the user
 * (bench/recall-calibrate.ts; a gate pooled over personas held 90% on the personas it was fitted on
 * and not on the others). Applied as the larger of this and {@link HYBRID_SCRIPT_GATES}.
 */
export const IMPERSONAL_SCRIPT_GATES: Readonly<{ latin: number; cjk: number }> = Object.freeze({ latin: 0.2842, cjk: 0.2863 });

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

/** The Worker-fused hybrid gate of a query with this CJK share (a query about the user). */
export const hybridGate = (cjkShare: number): number => byScript(HYBRID_SCRIPT_GATES, cjkShare);

/**
 * The default gate of one query on `scale`: on the Worker-fused hybrid scale, by the query's script
 * and, for a query that is not about the user, the larger {@link IMPERSONAL_SCRIPT_GATES}; on the
 * others {@link DEFAULT_RECALL_GATES} (only the hybrid scale was calibrated per query). `query` is
 * the recall query text (recall-query.ts: "the user" already reads as "I").
 */
export function queryGate(query: string, scale: RelevanceScale): number {
  if (scale !== "hybrid") return DEFAULT_RECALL_GATES[scale];
  const share = queryCjkShare(query);
  const gate = hybridGate(share);
  return queryAboutUser(query) ? gate : Math.max(gate, byScript(IMPERSONAL_SCRIPT_GATES, share));
}

/** `x` clamped to 0..1; 0 for a non-finite value. */
export const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
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

/**
 * The scale of a store searching in `mode` with `fusion`: what a recall that never asked the store
 * reports (a store's answer says its own scale, see `FactMatches.scale`).
 */
export function relevanceScale(mode: RetrievalMode, fusion: FusionMode): RelevanceScale {
  if (mode !== "hybrid") return mode;
  return fusion === "worker" ? "hybrid" : fusion;
}
