import { FACT_TYPES } from "../../../src/memory/model.ts";
import type { Dataset, DatasetFact, DatasetQuery } from "../../data/recall/schema.ts";
import { answerFigures, CUTOFFS, gapPercent, injectionFigures, queryFigures, type Cutoff, type Ranked } from "./metrics.ts";
import { DATINGS, type Dating, type DatingFigures, type RetrieverResult } from "./report.ts";
import type { PersonaFacts, Retriever } from "./retriever.ts";

/** Everything one retriever answered under one dating, before any figure is computed. */
interface Collected {
  ranked: Ranked[];
  /** What it injected for each (unrelated query, persona) pair. */
  unrelated: string[][];
  related: { query: DatasetQuery; injected: string[] }[];
}

/** One persona's facts aged against `now` (dated), or all created at `now` (undated). */
export function personaFacts(dataset: Dataset, persona: string, dating: Dating, now: number): PersonaFacts {
  const facts = dataset.facts
    .filter((f) => f.persona === persona)
    .map((f) => ({
      id: f.id,
      text: f.text,
      type: f.type,
      importance: f.importance,
      createdAt: dating === "dated" ? now - f.ageSeconds * 1000 : now,
    }));
  return { persona, facts };
}

async function rank(retriever: Retriever, query: DatasetQuery): Promise<Ranked> {
  const lists = {} as Record<Cutoff, string[]>;
  for (const k of CUTOFFS) lists[k] = await retriever.recall(query.text, k);
  return { query, lists };
}

async function collectOne(retriever: Retriever, dataset: Dataset, dating: Dating, now: number): Promise<Collected> {
  const into: Collected = { ranked: [], unrelated: [], related: [] };
  for (const { id: persona } of dataset.personas) {
    const queries = dataset.queries.filter((q) => q.persona === persona);
    await retriever.setup(personaFacts(dataset, persona, dating, now));
    for (const q of queries) into.ranked.push(await rank(retriever, q));
    if (!retriever.inject) continue;
    for (const q of queries) into.related.push({ query: q, injected: await retriever.inject(q.text) });
    for (const u of dataset.unrelated) into.unrelated.push(await retriever.inject(u.text));
  }
  return into;
}

function summarize(c: Collected, facts: ReadonlyMap<string, DatasetFact>, injects: boolean): DatingFigures {
  const subsets: Record<string, Ranked[]> = {
    en: c.ranked.filter((r) => r.query.language === "en"),
    zh: c.ranked.filter((r) => r.query.language === "zh"),
    "cross-lingual": c.ranked.filter((r) => r.query.crossLingual),
    paraphrase: c.ranked.filter((r) => r.query.kind === "paraphrase"),
    inflection: c.ranked.filter((r) => r.query.kind === "inflection"),
  };
  return {
    overall: queryFigures(c.ranked),
    byLanguage: Object.fromEntries(Object.entries(subsets).map(([name, rs]) => [name, queryFigures(rs)])),
    byType: Object.fromEntries(FACT_TYPES.map((t) => [t, answerFigures(c.ranked, facts, t)])),
    injection: injects ? injectionFigures(c.unrelated, c.related) : null,
  };
}

/**
 * Runs every retriever over every persona, dated then undated, one retriever at a time (each
 * `setup` replaces what it held), and computes the figures of each.
 */
export async function runRetrievers(retrievers: readonly Retriever[], dataset: Dataset, now: number): Promise<RetrieverResult[]> {
  const facts = new Map(dataset.facts.map((f) => [f.id, f]));
  const results: RetrieverResult[] = [];
  for (const retriever of retrievers) {
    const figures = {} as Record<Dating, DatingFigures>;
    for (const dating of DATINGS) {
      const collected = await collectOne(retriever, dataset, dating, now);
      figures[dating] = summarize(collected, facts, retriever.inject !== undefined);
    }
    const { dated, undated } = figures;
    const recall = Object.fromEntries(CUTOFFS.map((k) => [k, gapPercent(dated.overall.recall[k], undated.overall.recall[k])])) as Record<
      Cutoff,
      number | null
    >;
    const mrr = gapPercent(dated.overall.mrr, undated.overall.mrr);
    results.push({ name: retriever.name, dated, undated, gap: { recall, mrr } });
  }
  return results;
}
