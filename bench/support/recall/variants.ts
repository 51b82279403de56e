import { QueryMode, WeightingStrategy, type Index, type QueryResult } from "@upstash/vector";
import { createFact, factId } from "../../../src/memory/facts/identity.ts";
import { candidateDepth } from "../../../src/memory/facts/recall.ts";
import { recallQueryText, recallQueryTexts } from "../../../src/memory/facts/recall-query.ts";
import { queryAboutUser } from "../../../src/memory/facts/query-about-user.ts";
import {
  GATE_FLOOR_RATIO,
  HYBRID_SCRIPT_GATES,
  hybridRelevance,
  IMPERSONAL_SCRIPT_GATES,
  queryCjkShare,
} from "../../../src/memory/facts/relevance.ts";
import { scopeToNamespace } from "../../../src/stores/fact-namespace.ts";
import { VectorFactStore } from "../../../src/stores/facts-vector.ts";
import { DEFAULT_BM25, idfWeight, textTerms } from "../../../tools/upstash-local/vector/index.ts";
import type { Dataset, DatasetQuery, Language } from "../../data/recall/schema.ts";
import { CUTOFFS } from "./metrics.ts";
import { personaFacts } from "./run.ts";
import { PERSONA_HALVES } from "./split.ts";

/**
 * Gate and ordering variants of hybrid recall, measured side by side on the same candidates.
 *
 * Every query is asked of the emulator's hybrid index once per depth the product would use (dense
 * and sparse part in one batch, as `VectorFactStore` does, plus the sparse part IDF-weighted for the
 * variants that need it). A variant maps a candidate to a relevance, gates on the best candidate
 * and orders the survivors. Its gate is never picked by hand: it is the lowest value that abstains
 * on at least 90% of the fit personas' (unrelated query, persona) pairs, the rule the product's
 * defaults were calibrated with. To show that the choice is not fitted to the test, each variant is
 * also calibrated on one half of the personas and of the unrelated queries and measured on the
 * other halves (recall-split.ts).
 * Only relevance is used (no importance / recency tie-break) and facts are dated, so `mean` at the
 * product's default gate is the product's hybrid recall without its tie-break.
 */

/** One candidate: the dataset id and each part's raw score (absent: that part did not return it). */
export interface StudyCandidate {
  id: string;
  dense?: number | undefined;
  sparse?: number | undefined;
  sparseIdf?: number | undefined;
}

/** What a variant may know of the query besides its candidates (computable in the Worker or index). */
export interface StudyQueryInfo {
  language: Language;
  /** Share of the recall query's words in CJK, as the product computes it (queryCjkShare). */
  cjkShare: number;
  /** Distinct BM25 terms of the recall query text (the emulator's tokenizer). */
  terms: number;
  /** Sum of the IDF weights of those terms in the persona's namespace. */
  idfSum: number;
  /** Whether the recall query text speaks about the user (queryAboutUser): picks the gate. */
  aboutUser: boolean;
}

export interface StudyQuery extends StudyQueryInfo {
  persona: string;
  /** The query as the dataset writes it (the held-out split hashes it). */
  text: string;
  /** Null for an unrelated query. */
  query: DatasetQuery | null;
  /** Candidates at the product's depth for each cutoff (related) or for the context's k (unrelated). */
  byK: Map<number, StudyCandidate[]>;
}

export interface Variant {
  name: string;
  /** Relevance of a candidate, 0 = unrelated. */
  relevance(c: StudyCandidate, q: StudyQueryInfo): number;
  /** Survivors below `gate x floorRatio` are cut (the product's two-level gate); 0 keeps all. */
  floorRatio: number;
  /**
   * `relevance` (the product), `rrf`: reciprocal-rank fusion of the dense and sparse ranks (k 60),
   * or `dbsf`: each part's scores normalized by mean +- 3 sigma over the candidates, summed.
   */
  order: "relevance" | "rrf" | "dbsf";
  /** One gate per query script instead of one for all. */
  perScript?: boolean;
  /** A fixed gate instead of a calibrated one (one for all, or one per query script). */
  fixedGate?: number | Gates;
  /**
   * Also a gate for queries not about the user, calibrated on those unrelated queries per script:
   * `pooled` over all (query, persona) pairs, or `per-persona`: the lowest at which every persona
   * abstains on 90% of them. With `fixedGate`, the fixed gates are kept for the other queries.
   */
  impersonal?: "pooled" | "per-persona";
}

const denseRel = (s: number | undefined): number => (s === undefined ? 0 : Math.min(1, Math.max(0, (s - 0.5) * 2)));
/** Largest BM25 weight one document term can have: f (k1 + 1) / (f + ...) tends to k1 + 1. */
const TERM_MAX = DEFAULT_BM25.k1 + 1;
const hybridOf = (c: StudyCandidate, q: StudyQueryInfo): number => hybridRelevance(c.dense, c.sparse, q.cjkShare);

/** The product's Worker-fused gates by query script, as `hybridGate` applies them (every query alike). */
export const PRODUCT_GATES: Gates = { en: HYBRID_SCRIPT_GATES.latin, zh: HYBRID_SCRIPT_GATES.cjk };

/** The gates of `queryGate`: by query script, and higher for a query not about the user. */
export const QUERY_GATES: Gates = {
  ...PRODUCT_GATES,
  impersonal: { en: IMPERSONAL_SCRIPT_GATES.latin, zh: IMPERSONAL_SCRIPT_GATES.cjk },
};

/** The variants, the product's first. */
export const VARIANTS: readonly Variant[] = [
  {
    name: "mean at today's gates (hybridGate, every query alike)",
    relevance: hybridOf,
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
    fixedGate: PRODUCT_GATES,
  },
  {
    name: "mean at queryGate (the product once recall uses it)",
    relevance: hybridOf,
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
    fixedGate: QUERY_GATES,
  },
  {
    name: "mean, impersonal gate per persona",
    relevance: hybridOf,
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
    fixedGate: PRODUCT_GATES,
    impersonal: "per-persona",
  },
  // the ranking's ceiling: what the candidates hold when nothing is gated (abstains on nothing)
  { name: "mean, no gate", relevance: hybridOf, floorRatio: 0, order: "relevance", fixedGate: 0 },
  { name: "mean", relevance: hybridOf, floorRatio: GATE_FLOOR_RATIO, order: "relevance", perScript: true },
  { name: "mean, one gate", relevance: hybridOf, floorRatio: GATE_FLOOR_RATIO, order: "relevance" },
  { name: "mean, no floor", relevance: hybridOf, floorRatio: 0, order: "relevance", perScript: true },
  { name: "(b) mean gate, rrf order", relevance: hybridOf, floorRatio: GATE_FLOOR_RATIO, order: "rrf", perScript: true },
  {
    // Upstash recommends IDF weighting with its BM25 model; the product's sparse query has none
    name: "mean, sparse query IDF-weighted",
    relevance: (c, q) => hybridRelevance(c.dense, c.sparseIdf, q.cjkShare),
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
  },
  {
    name: "(a) coverage",
    // sparse score / the query's maximum attainable score (every term matched at its largest weight)
    relevance: (c, q) => 0.5 * denseRel(c.dense) + 0.5 * Math.min(1, (c.sparse ?? 0) / (TERM_MAX * Math.max(1, q.terms))),
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
  },
  {
    name: "(a) coverage, gate per script",
    relevance: (c, q) => 0.5 * denseRel(c.dense) + 0.5 * Math.min(1, (c.sparse ?? 0) / (TERM_MAX * Math.max(1, q.terms))),
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
    perScript: true,
  },
  {
    name: "(a) idf coverage",
    relevance: (c, q) => 0.5 * denseRel(c.dense) + 0.5 * Math.min(1, (c.sparseIdf ?? 0) / (TERM_MAX * Math.max(1e-9, q.idfSum))),
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
  },
  {
    name: "(c) either part: max(dense, idf cov)",
    relevance: (c, q) => Math.max(denseRel(c.dense), Math.min(1, (c.sparseIdf ?? 0) / (TERM_MAX * Math.max(1e-9, q.idfSum)))),
    floorRatio: GATE_FLOOR_RATIO,
    order: "relevance",
  },
];

/** Persona halves for the held-out check: each has an English persona and Chinese ones. */
export const HALVES = PERSONA_HALVES;

/** Gates by query script; `impersonal`, when set, is the gate of a query not about the user (the larger applies). */
export type Gates = Record<Language, number> & { impersonal?: Record<Language, number> };

function merge(
  dense: readonly QueryResult[],
  sparse: readonly QueryResult[],
  idf: readonly QueryResult[],
  ids: Map<string, string>,
): StudyCandidate[] {
  const by = new Map<string, StudyCandidate>();
  const put = (rs: readonly QueryResult[], part: "dense" | "sparse" | "sparseIdf"): void => {
    for (const r of rs) {
      const id = ids.get(String(r.id));
      if (!id) continue;
      const c = by.get(id) ?? { id };
      c[part] = r.score;
      by.set(id, c);
    }
  };
  put(dense, "dense");
  put(sparse, "sparse");
  put(idf, "sparseIdf");
  return [...by.values()];
}

/** Per id, the result with the highest score among `lists` (one list per wording). */
function bestResults(lists: readonly (readonly QueryResult[])[]): QueryResult[] {
  const by = new Map<string, QueryResult>();
  for (const r of lists.flat()) {
    const found = by.get(String(r.id));
    if (!found || r.score > found.score) by.set(String(r.id), r);
  }
  return [...by.values()];
}

/** Asks every query of every persona (facts dated against `now`) at the product's depths. */
export async function collectStudy(index: Index, dataset: Dataset, now: number, recallK: number): Promise<StudyQuery[]> {
  const store = new VectorFactStore(index, { retrieval: "hybrid" });
  const out: StudyQuery[] = [];
  for (const { id: persona } of dataset.personas) {
    const scope = { tenant: "study", userId: persona };
    const namespace = scopeToNamespace(scope);
    const facts = personaFacts(dataset, persona, "dated", now).facts;
    await store.deleteAll(scope);
    const ids = new Map<string, string>();
    const stored = await Promise.all(
      facts.map(async (f) => {
        const id = await factId(scope, f.text);
        ids.set(id, f.id);
        return createFact(id, { text: f.text, type: f.type, importance: f.importance }, f.createdAt);
      }),
    );
    await store.upsert(scope, stored);
    const df = new Map<string, number>();
    for (const f of facts) for (const t of new Set(textTerms(f.text, DEFAULT_BM25))) df.set(t, (df.get(t) ?? 0) + 1);
    // Every wording the product searches (recallQueryTexts: first person and, when it differs,
    // "the user"), each part merged per fact with its best score, as the fact store does.
    const ask = async (text: string, depths: readonly number[]): Promise<Map<number, StudyCandidate[]>> => {
      const wordings = recallQueryTexts(text);
      const byK = new Map<number, StudyCandidate[]>();
      for (const k of depths) {
        const topK = candidateDepth(k);
        const results = await index.queryMany(
          wordings.flatMap((data) => [
            { data, topK, queryMode: QueryMode.DENSE },
            { data, topK, queryMode: QueryMode.SPARSE },
            { data, topK, queryMode: QueryMode.SPARSE, weightingStrategy: WeightingStrategy.IDF },
          ]),
          { namespace },
        );
        const part = (j: number) => bestResults(results.filter((_, i) => i % 3 === j));
        byK.set(k, merge(part(0), part(1), part(2), ids));
      }
      return byK;
    };
    const info = (text: string, language: Language): StudyQueryInfo & { text: string } => {
      const terms = [...new Set(textTerms(recallQueryText(text), DEFAULT_BM25))];
      return {
        text,
        language,
        aboutUser: queryAboutUser(recallQueryText(text)),
        cjkShare: queryCjkShare(recallQueryText(text)),
        terms: terms.length,
        idfSum: terms.reduce((s, t) => s + idfWeight(facts.length, df.get(t) ?? 0), 0),
      };
    };
    for (const q of dataset.queries.filter((x) => x.persona === persona)) {
      out.push({ persona, query: q, ...info(q.text, q.language), byK: await ask(q.text, CUTOFFS) });
    }
    for (const u of dataset.unrelated) {
      const language: Language = /[\p{Script=Han}]/u.test(u.text) ? "zh" : "en";
      out.push({ persona, query: null, ...info(u.text, language), byK: await ask(u.text, [recallK]) });
    }
  }
  return out;
}
