import type { Index, RangeResult } from "@upstash/vector";
import type { FactPage, FactQuery, FactScope, FactStore } from "../memory/ports.ts";
import { FACT_TYPES, type Fact } from "../memory/types.ts";
import { InvalidStoreInput, UnexpectedReply } from "./errors.ts";
import { typeFilter } from "./fact-filter.ts";
import { factFromMetadata, factToMetadata } from "./fact-metadata.ts";
import { namespaceToScope, scopeToNamespace } from "./fact-namespace.ts";

/** The part of the `@upstash/vector` client the fact store uses (Node and Cloudflare `Index` both fit). */
export type VectorIndex = Pick<Index, "upsert" | "query" | "fetch" | "update" | "delete" | "range" | "listNamespaces" | "deleteNamespace">;

/** Computes embeddings in the Worker (e.g. OpenAI) instead of the index's own model. */
export type EmbedFunction = (texts: string[]) => Promise<number[][]>;

/** Options of {@link VectorFactStore}. */
export interface VectorFactStoreOptions {
  /**
   * Embeds texts before upsert and query. Default: none - the index embeds the text itself
   * (`upsert-data` / `query-data`, one round trip each).
   */
  embed?: EmbedFunction | undefined;
}

/** Upstash's documented upsert batch limit. */
const UPSERT_BATCH = 1000;

/** Upstash answers 404 for a namespace that was never written (or was deleted). */
const isMissingNamespace = (err: unknown): boolean =>
  err instanceof Error && /namespace/i.test(err.message) && /(not exist|not found)/i.test(err.message);

function assertFact(fact: Fact): void {
  if (typeof fact.id !== "string" || fact.id === "") throw new InvalidStoreInput("fact id is required");
  if (!(FACT_TYPES as readonly string[]).includes(fact.type)) throw new InvalidStoreInput("unknown fact type");
}

/** {@link FactStore} on Upstash Vector: one namespace per (tenant, user), every fact field in metadata. */
export class VectorFactStore implements FactStore {
  readonly #index: VectorIndex;
  readonly #embed: EmbedFunction | undefined;

  constructor(index: VectorIndex, options: VectorFactStoreOptions = {}) {
    this.#index = index;
    this.#embed = options.embed;
  }

  async upsert(scope: FactScope, facts: Fact[]): Promise<void> {
    const namespace = scopeToNamespace(scope);
    facts.forEach(assertFact);
    for (let i = 0; i < facts.length; i += UPSERT_BATCH) {
      const batch = facts.slice(i, i + UPSERT_BATCH);
      if (this.#embed) {
        const vectors = await this.#embedAll(batch.map((f) => f.text));
        const items = batch.map((f, j) => ({ id: f.id, vector: vectors[j] ?? [], metadata: factToMetadata(f) }));
        await this.#index.upsert(items, { namespace });
      } else {
        await this.#index.upsert(batch.map((f) => ({ id: f.id, data: f.text, metadata: factToMetadata(f) })), { namespace });
      }
    }
  }

  async query(scope: FactScope, query: FactQuery): Promise<{ fact: Fact; similarity: number }[]> {
    const namespace = scopeToNamespace(scope);
    if (!Number.isSafeInteger(query.topK) || query.topK <= 0) throw new InvalidStoreInput("topK must be a positive integer");
    const filter = typeFilter(query.types);
    const common = { topK: query.topK, includeMetadata: true, ...(filter ? { filter } : {}) };
    try {
      const results = this.#embed
        ? await this.#index.query({ ...common, vector: (await this.#embedAll([query.text]))[0] ?? [] }, { namespace })
        : await this.#index.query({ ...common, data: query.text }, { namespace });
      return results.flatMap((r) => {
        const fact = factFromMetadata(r.id, r.metadata);
        return fact ? [{ fact, similarity: r.score }] : [];
      });
    } catch (err) {
      if (isMissingNamespace(err)) return [];
      throw err;
    }
  }

  async get(scope: FactScope, ids: string[]): Promise<(Fact | null)[]> {
    const namespace = scopeToNamespace(scope);
    if (ids.length === 0) return [];
    try {
      const found = await this.#index.fetch(ids, { includeMetadata: true, namespace });
      return ids.map((_, i) => {
        const v = found[i];
        return v ? factFromMetadata(v.id, v.metadata) : null;
      });
    } catch (err) {
      if (isMissingNamespace(err)) return ids.map(() => null);
      throw err;
    }
  }

  async patch(scope: FactScope, facts: Fact[]): Promise<void> {
    const namespace = scopeToNamespace(scope);
    facts.forEach(assertFact);
    // OVERWRITE: the metadata always holds the whole fact, so no stale field can survive a patch.
    await Promise.all(
      facts.map((f) => this.#index.update({ id: f.id, metadata: factToMetadata(f), metadataUpdateMode: "OVERWRITE" }, { namespace })),
    );
  }

  async delete(scope: FactScope, ids: string[]): Promise<number> {
    const namespace = scopeToNamespace(scope);
    if (ids.length === 0) return 0;
    try {
      return (await this.#index.delete(ids, { namespace })).deleted;
    } catch (err) {
      if (isMissingNamespace(err)) return 0;
      throw err;
    }
  }

  async list(scope: FactScope, cursor: string, limit: number): Promise<FactPage> {
    const namespace = scopeToNamespace(scope);
    if (!Number.isSafeInteger(limit) || limit <= 0) throw new InvalidStoreInput("limit must be a positive integer");
    try {
      const page = await this.#index.range({ cursor: cursor === "" ? 0 : cursor, limit, includeMetadata: true }, { namespace });
      const facts = page.vectors.flatMap((v) => {
        const fact = factFromMetadata(v.id, v.metadata);
        return fact ? [fact] : [];
      });
      return { facts, nextCursor: page.nextCursor || "" };
    } catch (err) {
      if (isMissingNamespace(err)) return { facts: [], nextCursor: "" };
      throw err;
    }
  }

  async deleteAll(scope: FactScope): Promise<number> {
    const namespace = scopeToNamespace(scope);
    // Count with id-only pages (cheap, bounded by one user's facts), then drop the namespace whole.
    let count = 0;
    let cursor: string | number = 0;
    try {
      do {
        const page: RangeResult = await this.#index.range({ cursor, limit: 1000 }, { namespace });
        count += page.vectors.length;
        // an empty page ends the loop too, so a server that repeats a cursor cannot spin us forever
        cursor = page.vectors.length > 0 ? page.nextCursor : "";
      } while (cursor !== "");
      await this.#index.deleteNamespace(namespace);
    } catch (err) {
      if (isMissingNamespace(err)) return count;
      throw err;
    }
    return count;
  }

  async scopes(): Promise<FactScope[]> {
    const namespaces = await this.#index.listNamespaces();
    return namespaces.flatMap((ns) => {
      const scope = namespaceToScope(ns);
      return scope ? [scope] : [];
    });
  }

  async #embedAll(texts: string[]): Promise<number[][]> {
    const embed = this.#embed;
    if (!embed) throw new UnexpectedReply("embed");
    const vectors = await embed(texts);
    if (vectors.length !== texts.length) throw new UnexpectedReply("embed");
    return vectors;
  }
}
