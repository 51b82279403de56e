/** The deploy's self-check: the Vector index's own `info` against what the configuration expects of it. */
import { UpstreamUnavailable } from "../memory/errors.ts";
import type { FactStore } from "../memory/ports/index.ts";
import type { RetrievalMode } from "../memory/options.ts";

/** What the Worker's configuration expects of its Vector index. */
export interface IndexExpectation {
  /** `VECTOR_INDEX` (forced to `dense` with `EMBEDDINGS=openai`). */
  retrieval: RetrievalMode;
  /** `EMBEDDINGS`: the index embeds (`index`) or the Worker does (`openai`). */
  embeddings: "index" | "openai";
  /** `OPENAI_EMBEDDING_MODEL`, with `EMBEDDINGS=openai`. */
  embeddingModel: string;
  /** `OPENAI_EMBEDDING_DIMENSIONS`; undefined: the model's own size. */
  embeddingDimensions: number | undefined;
}

/** The part of Upstash Vector's `info` answer the check reads. */
export interface IndexInfo {
  dimension: number;
  denseIndex?: { dimension: number; embeddingModel?: string } | undefined;
  sparseIndex?: { embeddingModel?: string } | undefined;
}

/** Vector sizes of the OpenAI embedding models, for a check without `OPENAI_EMBEDDING_DIMENSIONS`. */
const MODEL_DIMENSIONS: Readonly<Record<string, number>> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

/** DENSE, SPARSE or HYBRID, from the parts `info` describes (the client's type has no `indexType`). */
export function indexKind(info: IndexInfo): "DENSE" | "SPARSE" | "HYBRID" {
  const declared = (info as { indexType?: unknown }).indexType;
  if (declared === "DENSE" || declared === "SPARSE" || declared === "HYBRID") return declared;
  if (info.sparseIndex && info.denseIndex) return "HYBRID";
  return info.sparseIndex ? "SPARSE" : "DENSE";
}

/**
 * Why the index does not fit the configuration, naming the variable to set; null when it fits.
 * Each of these would otherwise show up later as failed or silently degraded recalls.
 */
export function indexMismatch(info: IndexInfo, expected: IndexExpectation): string | null {
  const kind = indexKind(info);
  if (expected.embeddings === "openai") {
    if (kind !== "DENSE")
      return `EMBEDDINGS=openai stores dense vectors only, but the index is ${kind}: use a DENSE index, or set EMBEDDINGS=index and VECTOR_INDEX=${kind.toLowerCase()}`;
    const dimension = info.denseIndex?.dimension ?? info.dimension;
    const wanted = expected.embeddingDimensions ?? MODEL_DIMENSIONS[expected.embeddingModel];
    if (wanted !== undefined && dimension !== wanted) {
      const source =
        expected.embeddingDimensions !== undefined
          ? `OPENAI_EMBEDDING_DIMENSIONS=${wanted}`
          : `OPENAI_EMBEDDING_MODEL=${expected.embeddingModel} (${wanted} dimensions)`;
      return `the index has dimension ${dimension} but ${source}: set OPENAI_EMBEDDING_DIMENSIONS=${dimension}, or use an index of dimension ${wanted}`;
    }
    return null;
  }
  const wanted = expected.retrieval.toUpperCase();
  if (kind !== wanted) return `VECTOR_INDEX=${expected.retrieval} but the index is ${kind}: set VECTOR_INDEX=${kind.toLowerCase()}`;
  if (kind !== "SPARSE" && !info.denseIndex?.embeddingModel) {
    return "EMBEDDINGS=index but the index has no dense embedding model: create the index with one, or set EMBEDDINGS=openai (the Worker embeds)";
  }
  if (kind !== "DENSE" && !info.sparseIndex?.embeddingModel) {
    return "EMBEDDINGS=index but the index has no sparse embedding model: create the index with BM25, or set VECTOR_INDEX=dense";
  }
  return null;
}

/** How long a mismatch is believed before the index is asked again (it may have been replaced). */
const MISMATCH_TTL_MS = 60_000;

type Verdict = { ok: true } | { ok: false; message: string; until: number };

/** Verdicts by index and expectation: one `info` per isolate, whichever request needs the index first. */
const verdicts = new Map<string, Verdict>();
const pending = new Map<string, Promise<void>>();

const DONE = Promise.resolve();

/** The error a request gets from an index that does not fit: 503, naming the variable to set. */
export function mismatchError(message: string): UpstreamUnavailable {
  return new UpstreamUnavailable("vector", `the Vector index does not fit the configuration: ${message}`, {
    reason: "not_configured",
    retryAfterSeconds: 60,
  });
}

/** Options of {@link VectorIndexCheck}. */
export interface VectorIndexCheckOptions {
  /** Names the index (its URL): verdicts are kept per index and expectation. */
  index: string;
  expected: IndexExpectation;
  /** The index's `info` (a failure is an outage: it is not remembered). */
  info: () => Promise<IndexInfo>;
  /** Clock in ms. @default Date.now */
  now?: (() => number) | undefined;
}

/** Checks the index once per isolate and remembers the verdict (a mismatch for a minute). */
export class VectorIndexCheck {
  readonly #key: string;
  readonly #o: VectorIndexCheckOptions;
  readonly #now: () => number;

  constructor(options: VectorIndexCheckOptions) {
    this.#o = options;
    this.#key = `${options.index}\u0000${JSON.stringify(options.expected)}`;
    this.#now = options.now ?? Date.now;
  }

  /** Resolves when the index fits; rejects with {@link mismatchError} when not. No round trip once known. */
  verify(): Promise<void> {
    const verdict = verdicts.get(this.#key);
    if (verdict?.ok) return DONE;
    if (verdict && verdict.until > this.#now()) return Promise.reject(mismatchError(verdict.message));
    let running = pending.get(this.#key);
    if (!running) {
      running = this.#o
        .info()
        .then((info) => {
          const message = this.record(info);
          if (message) throw mismatchError(message);
        })
        .finally(() => pending.delete(this.#key));
      pending.set(this.#key, running);
    }
    return running;
  }

  /** Judges an `info` answer (from here or from `/healthz`), remembers and returns the mismatch, if any. */
  record(info: IndexInfo): string | null {
    const message = indexMismatch(info, this.#o.expected);
    verdicts.set(this.#key, message === null ? { ok: true } : { ok: false, message, until: this.#now() + MISMATCH_TTL_MS });
    return message;
  }
}

/** Methods that run whatever the index: erasing a user must not wait for a configuration fix. */
const UNCHECKED = new Set<PropertyKey>(["deleteAll"]);

/**
 * The fact store behind the check: every call first waits for {@link VectorIndexCheck.verify}
 * (instant once the index is known to fit), so nothing is read or written through an index that
 * does not fit. `ready()` runs the check alone.
 */
export function checkedFactStore(store: FactStore, check: VectorIndexCheck): FactStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === "ready") return () => check.verify();
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (UNCHECKED.has(prop)) return (value as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        await check.verify();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
