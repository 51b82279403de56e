/** The fact store on Upstash Vector: one namespace per user, every fact field in metadata, recall in the index's mode. */
import { FusionAlgorithm, QueryMode, type QueryResult, type RangeResult } from "@upstash/vector";
import type {
  ContentMatch,
  ContentRef,
  FactAccess,
  FactMatches,
  FactPage,
  FactQuery,
  FactRefresh,
  FactScope,
  FactStore,
} from "../memory/ports/index.ts";
import type { FusionMode, RetrievalMode } from "../memory/options.ts";
import type { RecallCandidate, RelevanceScale } from "../memory/model.ts";
import type { Fact } from "../memory/model.ts";
import { InvalidStoreInput, UnexpectedReply } from "./errors.ts";
import { CURRENT_FACTS_FILTER, allOf, contentIdFilter, scopeFilter, supersededByFilter, typeFilter } from "./fact-filter.ts";
import { orEmpty, UPSERT_BATCH, type EmbedFunction, type VectorIndex } from "./fact-index.ts";
import { bestOf, candidatesOf, mergeParts } from "./fact-candidates.ts";
import { assertFact, factFromMetadata, factToMetadata } from "./fact-metadata.ts";
import { assertId } from "./keys.ts";
import { namespaceToScope, scopeToNamespace } from "./fact-namespace.ts";

/** Options of {@link VectorFactStore}. */
export interface VectorFactStoreOptions {
  /**
   * Embeds texts before upsert and query. Default: none - the index embeds the text itself
   * (`upsert-data` / `query-data`, one round trip each).
   */
  embed?: EmbedFunction | undefined;
  /**
   * What the index holds and recall searches: `dense` and `sparse` query the index's one part,
   * `hybrid` both. Default "dense" (a plain query, valid on every index kind).
   */
  retrieval?: RetrievalMode | undefined;
  /**
   * Hybrid only: `worker` asks for the dense and the sparse ranking in one request (a query batch)
   * and returns both scores per fact for the domain to fuse; `rrf` / `dbsf` let the index fuse.
   * Default "worker".
   */
  fusion?: FusionMode | undefined;
}

/** One query of a batch, as the client takes it. */
type QueryPayload = Parameters<VectorIndex["queryMany"]>[0][number];

const toFacts = (vectors: { id: string | number; metadata?: unknown }[]): Fact[] =>
  vectors.flatMap((v) => factFromMetadata(v.id, v.metadata) ?? []);

/** {@link FactStore} on Upstash Vector: one namespace per (tenant, user), every fact field in metadata. */
export class VectorFactStore implements FactStore {
  readonly #index: VectorIndex;
  readonly #embed: EmbedFunction | undefined;
  readonly #retrieval: RetrievalMode;
  readonly #fusion: FusionMode;

  constructor(index: VectorIndex, options: VectorFactStoreOptions = {}) {
    this.#index = index;
    this.#embed = options.embed;
    this.#retrieval = options.retrieval ?? "dense";
    this.#fusion = options.fusion ?? "worker";
  }

  async upsert(scope: FactScope, facts: Fact[]): Promise<void> {
    const namespace = scopeToNamespace(scope);
    facts.forEach(assertFact);
    for (let i = 0; i < facts.length; i += UPSERT_BATCH) {
      const batch = facts.slice(i, i + UPSERT_BATCH);
      if (this.#embed) {
        const vectors = await this.#embedAll(batch.map((f) => f.text));
        await this.#index.upsert(
          batch.map((f, j) => ({ id: f.id, vector: vectors[j] ?? [], metadata: factToMetadata(f) })),
          { namespace },
        );
      } else {
        await this.#index.upsert(
          batch.map((f) => ({ id: f.id, data: f.text, metadata: factToMetadata(f) })),
          { namespace },
        );
      }
    }
  }

  /** Candidates with the scale of the scores the index was asked for (see `FactMatches.scale`). */
  async query(scope: FactScope, query: FactQuery): Promise<FactMatches> {
    const namespace = scopeToNamespace(scope);
    if (!Number.isSafeInteger(query.topK) || query.topK <= 0) throw new InvalidStoreInput("topK must be a positive integer");
    const filter = allOf([typeFilter(query.types), scopeFilter(query.filter), CURRENT_FACTS_FILTER]);
    const common = { topK: query.topK, includeMetadata: true as const, ...(filter ? { filter } : {}) };
    // A wording sent twice would be the same query twice: each distinct one once.
    const texts = [...new Set([query.text, ...(query.also ?? [])])];
    if (this.#embed) {
      // Worker-side embeddings are dense: the index's sparse model is not involved.
      const vectors = await this.#embedAll(texts);
      const results = await orEmpty(
        () =>
          this.#queryEach(
            vectors.map((vector) => ({ ...common, vector })),
            namespace,
          ),
        [],
      );
      return { scale: "dense", candidates: bestOf(results.map((r) => candidatesOf(r, "dense"))), queries: texts.length };
    }
    if (this.#retrieval === "hybrid" && this.#fusion === "worker") {
      const sparse = query.sparseText === undefined ? texts : [query.sparseText];
      return {
        scale: "hybrid",
        candidates: await this.#queryParts(namespace, texts, sparse, common),
        queries: texts.length + sparse.length,
      };
    }
    const mode = this.#retrieval;
    // A hybrid index fuses its parts itself, so the scores are on its fusion's scale.
    const scale: RelevanceScale = mode !== "hybrid" ? mode : this.#fusion === "dbsf" ? "dbsf" : "rrf";
    const fusion = mode === "hybrid" ? { fusionAlgorithm: scale === "dbsf" ? FusionAlgorithm.DBSF : FusionAlgorithm.RRF } : {};
    const results = await orEmpty(
      () =>
        this.#queryEach(
          texts.map((data) => ({ ...common, ...fusion, data })),
          namespace,
        ),
      [],
    );
    const part = mode === "hybrid" ? null : mode;
    return { scale, candidates: bestOf(results.map((r) => candidatesOf(r, part))), queries: texts.length };
  }

  /** Queries in one request: a single query, or a batch (answered with one result list per query). */
  async #queryEach(queries: QueryPayload[], namespace: string): Promise<QueryResult[][]> {
    if (queries.length === 1) return [await this.#index.query(queries[0]!, { namespace })];
    return this.#index.queryMany(queries, { namespace });
  }

  /**
   * Both parts of a hybrid index in one request: a batch of a DENSE query per dense wording and a
   * SPARSE query per sparse one, merged per fact with each part's best score; a fact only one part
   * found has no score for the other.
   */
  async #queryParts(
    namespace: string,
    denseTexts: readonly string[],
    sparseTexts: readonly string[],
    common: { topK: number; includeMetadata: true; filter?: string },
  ): Promise<RecallCandidate[]> {
    const batch = [
      ...denseTexts.map((data) => ({ ...common, data, queryMode: QueryMode.DENSE })),
      ...sparseTexts.map((data) => ({ ...common, data, queryMode: QueryMode.SPARSE })),
    ];
    const results = await orEmpty(() => this.#index.queryMany(batch, { namespace }), []);
    const dense = bestOf(results.slice(0, denseTexts.length).map((r) => candidatesOf(r, "dense")));
    const sparse = bestOf(results.slice(denseTexts.length).map((r) => candidatesOf(r, "sparse")));
    return mergeParts(dense, sparse);
  }

  async get(scope: FactScope, ids: string[]): Promise<(Fact | null)[]> {
    const namespace = scopeToNamespace(scope);
    if (ids.length === 0) return [];
    const found = await orEmpty(() => this.#index.fetch(ids, { includeMetadata: true, namespace }), []);
    return ids.map((_, i) => {
      const v = found[i];
      return v ? factFromMetadata(v.id, v.metadata) : null;
    });
  }

  /**
   * A fetch by id (facts never edited, and those stored before content ids were recorded, have
   * their content id as id) and a query filtered on the recorded content id (edited facts), in
   * parallel: one round trip.
   */
  async findByContent(scope: FactScope, contents: ContentRef[]): Promise<ContentMatch[]> {
    const namespace = scopeToNamespace(scope);
    if (contents.length === 0) return [];
    const contentIds = contents.map((c) => c.contentId);
    const filter = contentIdFilter(contentIds);
    const topK = Math.min(100, contentIds.length * 2);
    const common = { topK, includeMetadata: true as const, filter };
    // The holder's text is the query, so it ranks first among the candidates whatever the filter.
    const probe = contents
      .map((c) => c.text)
      .join("\n")
      .slice(0, 2000);
    const [byId, byContent] = await Promise.all([
      orEmpty(() => this.#index.fetch(contentIds, { includeMetadata: true, namespace }), []),
      this.#filtered(namespace, probe, common),
    ]);
    const edited = toFacts(byContent.map((r) => ({ id: r.id, metadata: r.metadata })));
    return contentIds.map((cid, i) => {
      const stored = byId[i] ? factFromMetadata(byId[i].id, byId[i].metadata) : null;
      const holder = edited.find((f) => f.contentId === cid) ?? (stored && (stored.contentId ?? stored.id) === cid ? stored : null);
      return { holder, idTaken: stored !== null };
    });
  }

  /** A query filtered on `supersededBy`, with the fact's own text as the probe (what it replaced is similar). */
  async supersededBy(scope: FactScope, fact: Fact): Promise<Fact[]> {
    const namespace = scopeToNamespace(scope);
    const filter = supersededByFilter(fact.id);
    const found = await this.#filtered(namespace, fact.text.slice(0, 2000), { topK: 100, includeMetadata: true, filter });
    return toFacts(found).filter((f) => f.supersededBy === fact.id);
  }

  /** One query for `probe` (embedded here or by the index) restricted by a filter; a missing namespace finds nothing. */
  #filtered(namespace: string, probe: string, common: { topK: number; includeMetadata: true; filter: string }): Promise<QueryResult[]> {
    return orEmpty(async () => {
      const vector = this.#embed ? (await this.#embedAll([probe]))[0] : undefined;
      return vector
        ? this.#index.query({ ...common, vector }, { namespace })
        : this.#index.query({ ...common, data: probe }, { namespace });
    }, []);
  }

  async patch(scope: FactScope, facts: Fact[]): Promise<void> {
    const namespace = scopeToNamespace(scope);
    facts.forEach(assertFact);
    // OVERWRITE: the metadata always holds the whole fact, so no stale field can survive a patch.
    await Promise.all(
      facts.map((f) => this.#index.update({ id: f.id, metadata: factToMetadata(f), metadataUpdateMode: "OVERWRITE" }, { namespace })),
    );
  }

  async refresh(scope: FactScope, refreshes: FactRefresh[]): Promise<string[]> {
    const namespace = scopeToNamespace(scope);
    // PATCH merges just these fields, and a missing id updates nothing (`updated: 0`).
    const results = await Promise.all(
      refreshes.map((r) => {
        assertId("fact id", r.id);
        // A restatement makes a superseded fact true again: `null` removes the field (RFC 7396).
        const patch = {
          id: r.id,
          metadata: { version: r.version, updatedAt: r.updatedAt, supersededAt: null, supersededBy: null },
          metadataUpdateMode: "PATCH" as const,
        };
        return orEmpty(() => this.#index.update(patch, { namespace }), { updated: 0 });
      }),
    );
    return refreshes.filter((_, i) => (results[i]?.updated ?? 0) === 0).map((r) => r.id);
  }

  async touch(scope: FactScope, accesses: FactAccess[]): Promise<void> {
    const namespace = scopeToNamespace(scope);
    // PATCH (RFC 7396) merges just these fields; a missing id updates nothing and creates nothing.
    await Promise.all(
      accesses.map((a) => {
        assertId("fact id", a.id);
        return this.#index.update(
          { id: a.id, metadata: { accessCount: a.accessCount, lastAccessedAt: a.lastAccessedAt }, metadataUpdateMode: "PATCH" },
          { namespace },
        );
      }),
    );
  }

  async delete(scope: FactScope, ids: string[]): Promise<number> {
    const namespace = scopeToNamespace(scope);
    if (ids.length === 0) return 0;
    return (await orEmpty(() => this.#index.delete(ids, { namespace }), { deleted: 0 })).deleted;
  }

  async list(scope: FactScope, cursor: string, limit: number): Promise<FactPage> {
    const namespace = scopeToNamespace(scope);
    if (!Number.isSafeInteger(limit) || limit <= 0) throw new InvalidStoreInput("limit must be a positive integer");
    const empty: RangeResult = { nextCursor: "", vectors: [] };
    const page = await orEmpty(
      () => this.#index.range({ cursor: cursor === "" ? 0 : cursor, limit, includeMetadata: true }, { namespace }),
      empty,
    );
    return { facts: toFacts(page.vectors), nextCursor: page.nextCursor || "" };
  }

  async deleteAll(scope: FactScope): Promise<number> {
    const namespace = scopeToNamespace(scope);
    // Count with id-only pages (bounded by one user's facts), then drop the namespace whole.
    const empty: RangeResult = { nextCursor: "", vectors: [] };
    let count = 0;
    let cursor: string | number = 0;
    do {
      const page: RangeResult = await orEmpty(() => this.#index.range({ cursor, limit: 1000 }, { namespace }), empty);
      count += page.vectors.length;
      // an empty page ends the loop too, so a server repeating a cursor cannot spin it forever
      cursor = page.vectors.length > 0 ? page.nextCursor : "";
    } while (cursor !== "");
    await orEmpty(() => this.#index.deleteNamespace(namespace), "");
    return count;
  }

  async scopes(): Promise<FactScope[]> {
    return (await this.#index.listNamespaces()).flatMap((ns) => namespaceToScope(ns) ?? []);
  }

  async #embedAll(texts: string[]): Promise<number[][]> {
    const vectors = this.#embed ? await this.#embed(texts) : [];
    if (vectors.length !== texts.length) throw new UnexpectedReply("embed");
    return vectors;
  }
}
