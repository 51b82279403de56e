/** @module Debounced, atomic saving of the Vector store to disk. */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { DenseModel, VectorIndexKind } from "./config.ts";
import { snapshot } from "./snapshot.ts";
import type { VectorStore } from "./store.ts";

/**
 * Debounced, serialized, atomic saving: mutations call `markDirty()`; the store is written
 * `debounceMs` later (a burst of upserts costs one write) via a temp file renamed over the target,
 * so a crash mid-write never leaves a truncated file. `close()` writes any pending change.
 */
export class Persister {
  readonly #file: string;
  readonly #store: VectorStore;
  readonly #kind: VectorIndexKind;
  readonly #denseModel: DenseModel | undefined;
  readonly #debounceMs: number;
  #timer: NodeJS.Timeout | undefined;
  #dirty = false;
  #writing: Promise<void> = Promise.resolve();
  #lastError: unknown;

  /** `denseModel`: the model that made the dense vectors (undefined when the index does not embed). */
  constructor(file: string, store: VectorStore, kind: VectorIndexKind, debounceMs = 250, denseModel?: DenseModel) {
    this.#file = file;
    this.#store = store;
    this.#kind = kind;
    this.#denseModel = denseModel;
    this.#debounceMs = debounceMs;
  }

  markDirty(): void {
    this.#dirty = true;
    if (this.#timer) return;
    this.#timer = setTimeout(() => void this.flush(), this.#debounceMs);
    this.#timer.unref(); // a pending save must not keep the process alive; close() flushes
  }

  /** Writes now if anything changed; resolves when the write (and earlier ones) finished. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#dirty) return this.#writing;
    this.#dirty = false;
    // Take the snapshot synchronously so the file reflects one consistent moment.
    const json = JSON.stringify(snapshot(this.#store, this.#kind, this.#denseModel));
    this.#writing = this.#writing
      .then(() => this.#write(json))
      .catch((err: unknown) => {
        this.#lastError = err;
      });
    return this.#writing;
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.#lastError !== undefined) throw this.#lastError;
  }

  async #write(json: string): Promise<void> {
    await mkdir(dirname(this.#file), { recursive: true });
    const tmp = `${this.#file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, json);
    await rename(tmp, this.#file);
  }
}
