import { QueryMode } from "@upstash/vector";
import { ExtractiveSummarizer } from "../../../src/memory/compression/extractive-summary.ts";
import { createFact, factId } from "../../../src/memory/facts/identity.ts";
import { SessionMemory } from "../../../src/memory/sessions/session-memory.ts";
import { DEFAULT_MEMORY_OPTIONS, type MemoryOptions } from "../../../src/memory/options.ts";
import type { FusionMode } from "../../../src/memory/options.ts";
import type { FactMatches, FactQuery, FactScope } from "../../../src/memory/ports/facts.ts";
import { intentQueryText } from "../../../src/memory/facts/query-intents.ts";
import { recallQueryText, unionWords } from "../../../src/memory/facts/recall-query.ts";
import { queryGate, relevanceScale } from "../../../src/memory/facts/relevance.ts";
import type { RecalledFact } from "../../../src/memory/model.ts";
import { scopeToNamespace } from "../../../src/stores/fact-namespace.ts";
import { VectorFactStore } from "../../../src/stores/facts-vector.ts";
import { testDeps } from "../../../test/support/memory-deps.ts";
import type { BenchEnv, PersonaFacts, Retriever, RetrieverFactory } from "./retriever.ts";

/**
 * Stores one persona's facts as the product does (content-hash ids, every field in metadata) into
 * the emptied namespace of `scope`, and returns the map from stored ids back to dataset ids.
 */
async function storePersona(store: VectorFactStore, scope: FactScope, persona: PersonaFacts): Promise<Map<string, string>> {
  await store.deleteAll(scope);
  const toDataset = new Map<string, string>();
  const facts = await Promise.all(
    persona.facts.map(async (f) => {
      const id = await factId(scope, f.text);
      toDataset.set(id, f.id);
      return createFact(id, { text: f.text, type: f.type, importance: f.importance }, f.createdAt);
    }),
  );
  await store.upsert(scope, facts);
  return toDataset;
}

const datasetIds = (recalled: readonly RecalledFact[], toDataset: Map<string, string>): string[] =>
  recalled.flatMap((r) => toDataset.get(r.fact.id) ?? []);

/** The product's store, minus the wording a relation intent adds to a query (the baseline of `query-intents.ts`). */
class StoreWithoutIntents extends VectorFactStore {
  override query(scope: FactScope, query: FactQuery): Promise<FactMatches> {
    const intent = intentQueryText(query.text);
    const also = (query.also ?? []).filter((t) => t !== intent);
    // nor its words in the one sparse query
    return super.query(scope, { ...query, also, sparseText: unionWords([query.text, ...also]) });
  }
}

/**
 * A product variant: without the intent wording, gated per query by `queryGate`, or over another
 * store (named: `product-<name>`, e.g. one that sends other query parts, bench/support/recall/parts.ts).
 */
export type ProductVariant = { withoutIntents: true } | { queryGate: true } | { name: string; store: VectorFactStore };

/**
 * `product`: recall as a chat context gets it today, `SessionMemory.recall` with the default
 * options (candidate depth, value/recency ranking, minRecallScore), over `VectorFactStore` on the
 * emulator; `inject` is `getContext({ query })` with the default k and gate. `product-querygate`
 * is the same with the gate of `queryGate` for each query, given as `minRecallScore` (what recall
 * does once `recallFrom` falls back to `queryGate` instead of the scale's gate).
 */
export const productRetriever =
  (fusion: FusionMode, variant?: ProductVariant): RetrieverFactory =>
  (env: BenchEnv) => {
    // Fusion variants only differ on a hybrid index.
    if (fusion !== "worker" && env.mode !== "hybrid") return null;
    const options: MemoryOptions = { ...DEFAULT_MEMORY_OPTIONS, retrieval: env.mode, fusion };
    const withoutIntents = variant !== undefined && "withoutIntents" in variant;
    const perQuery = variant !== undefined && "queryGate" in variant;
    const other = variant !== undefined && "store" in variant ? variant : null;
    const suffix = withoutIntents ? "-nointent" : perQuery ? "-querygate" : other ? `-${other.name}` : "";
    const store =
      other?.store ??
      (withoutIntents
        ? new StoreWithoutIntents(env.index, { retrieval: env.mode, fusion })
        : new VectorFactStore(env.index, { retrieval: env.mode, fusion }));
    let persona = "";
    let toDataset = new Map<string, string>();
    const scale = relevanceScale(env.mode, fusion);
    const tenant = `product-${fusion}${suffix}`;
    const current = (query: string): SessionMemory => {
      if (!persona) throw new Error("product retriever used before setup");
      const gated = perQuery ? { ...options, minRecallScore: queryGate(recallQueryText(query), scale) } : options;
      const deps = testDeps({
        tenant,
        sessions: env.sessions,
        facts: store,
        summarizer: new ExtractiveSummarizer(env.counter),
        counter: env.counter,
        options: gated,
        now: () => env.now,
      });
      return new SessionMemory(deps, { sessionId: `recall-${persona}`, userId: persona });
    };
    const retriever: Retriever = {
      name: (fusion === "worker" ? "product" : `product-${fusion}`) + suffix,
      async setup(facts) {
        toDataset = await storePersona(store, { tenant, userId: facts.persona }, facts);
        persona = facts.persona;
      },
      async recall(query, k) {
        return datasetIds(await current(query).recall(query, k), toDataset);
      },
      async inject(query) {
        const context = await current(query).getContext({ query });
        // A failed recall would look like an abstention: stop instead of counting it.
        if (context.degraded.length > 0) throw new Error(`context degraded (${context.degraded.join(", ")}): "${query}"`);
        return datasetIds(context.facts, toDataset);
      },
    };
    return retriever;
  };

/**
 * `cosine-raw`: the emulator's dense similarity alone (query-data, ranked by the index's score,
 * no product ranking or gate), to tell the embedder's share from the ranking's. On a hybrid index
 * it asks for the dense side only; a sparse index has none, so it does not apply there.
 */
export const cosineRawRetriever: RetrieverFactory = (env: BenchEnv) => {
  if (env.mode === "sparse") return null;
  const store = new VectorFactStore(env.index);
  let namespace = "";
  let toDataset = new Map<string, string>();
  const retriever: Retriever = {
    name: "cosine-raw",
    async setup(persona) {
      const scope = { tenant: "cosine", userId: persona.persona };
      namespace = scopeToNamespace(scope);
      toDataset = await storePersona(store, scope, persona);
    },
    async recall(query, k) {
      const dense = env.mode === "hybrid" ? { queryMode: QueryMode.DENSE } : {};
      const results = await env.index.query({ data: query, topK: k, ...dense }, { namespace });
      return results.flatMap((r) => toDataset.get(String(r.id)) ?? []);
    },
  };
  return retriever;
};
