import type { Index } from "@upstash/vector";
import type { SessionStore } from "../../../src/memory/ports/sessions.ts";
import type { TokenCounter } from "../../../src/memory/ports/llm.ts";
import type { FactType } from "../../../src/memory/model.ts";

/** One fact as a retriever gets it: the dataset id, and the fields the product stores. */
export interface BenchFact {
  id: string;
  text: string;
  type: FactType;
  importance: number;
  /** Creation time in ms (the fixed "now" minus the fact's age, or "now" itself when undated). */
  createdAt: number;
}

/** The facts of one persona; each persona is one user (one namespace) of its own. */
export interface PersonaFacts {
  persona: string;
  facts: readonly BenchFact[];
}

/**
 * A way to recall facts, measured by the recall-quality bench. Metrics only see dataset ids, so a
 * new mode (a gate, a reranker, a fusion) is a new Retriever and nothing else changes.
 */
export interface Retriever {
  readonly name: string;
  /** Replaces whatever the retriever held with one persona's facts. */
  setup(persona: PersonaFacts): Promise<void>;
  /** Dataset ids of the best `k` facts for `query`, best first; fewer (or none) when it filters. */
  recall(query: string, k: number): Promise<string[]>;
  /**
   * Ids of the facts a chat context would inject for `query` with default settings (default k,
   * default gate). Only retrievers that model a context implement it; it feeds the abstention figures.
   */
  inject?(query: string): Promise<string[]>;
}

/** What a retriever may build on: the emulator's index, the session store and the bench clock. */
export interface BenchEnv {
  index: Index;
  sessions: SessionStore;
  counter: TokenCounter;
  /** The index kind being measured. */
  mode: IndexMode;
  /** The fixed "now" in ms that dated facts are aged against. */
  now: number;
}

/** Builds a retriever for `env`, or returns null when it does not apply to `env.mode`. */
export type RetrieverFactory = (env: BenchEnv) => Retriever | null;

export const INDEX_MODES = ["dense", "sparse", "hybrid"] as const;

/** Upstash Vector index kinds: dense embeddings, sparse (BM25-style) vectors, or both fused. */
export type IndexMode = (typeof INDEX_MODES)[number];

export const isIndexMode = (value: string): value is IndexMode => (INDEX_MODES as readonly string[]).includes(value);
