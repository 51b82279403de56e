/** @module A bounded map that drops its least recently used entry: the emulator's embedding caches. */

/** A `Map` bounded to `capacity` entries; `get` and `set` make an entry the most recently used. */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const hit = this.#entries.get(key);
    if (hit !== undefined) this.set(key, hit);
    return hit;
  }

  /** Stores `value`, dropping the oldest entry when over capacity (a Map iterates oldest first). */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }

  /** The value without touching its place in the order. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
