/** @module VectorStore: all namespaces of the emulated index. */
import { NamespaceStore } from "./namespace-store.ts";

export { NamespaceStore, type RecordInput, type ScoredRecord, type StoredRecord } from "./namespace-store.ts";

/** All namespaces of the index. The default namespace `""` always exists. */
export class VectorStore {
  readonly dimension: number;
  readonly #namespaces = new Map<string, NamespaceStore>();

  constructor(dimension: number) {
    this.dimension = dimension;
    this.#namespaces.set("", new NamespaceStore(dimension));
  }

  get(namespace: string): NamespaceStore | undefined {
    return this.#namespaces.get(namespace);
  }

  /** The namespace, created if needed (namespaces are created implicitly by upserts). */
  ensure(namespace: string): NamespaceStore {
    let ns = this.#namespaces.get(namespace);
    if (!ns) {
      ns = new NamespaceStore(this.dimension);
      this.#namespaces.set(namespace, ns);
    }
    return ns;
  }

  /** Removes a namespace; the default one cannot be removed. */
  delete(namespace: string): boolean {
    return namespace !== "" && this.#namespaces.delete(namespace);
  }

  /** Namespace names in creation order, `""` first. */
  names(): string[] {
    return [...this.#namespaces.keys()];
  }

  entries(): IterableIterator<[string, NamespaceStore]> {
    return this.#namespaces.entries();
  }
}
