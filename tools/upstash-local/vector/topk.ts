/**
 * Keeps the best `k` of a stream of scored items in a binary min-heap (root = worst kept), so a
 * topK query over n records costs O(n log k) instead of sorting everything. Ties keep the item
 * that came first (lower `order`), which makes results deterministic.
 */
export class TopK<T> {
  readonly #k: number;
  readonly #heap: { score: number; order: number; item: T }[] = [];

  constructor(k: number) {
    this.#k = k;
  }

  /** True when `a` ranks below `b`. */
  static #worse(a: { score: number; order: number }, b: { score: number; order: number }): boolean {
    return a.score < b.score || (a.score === b.score && a.order > b.order);
  }

  offer(score: number, order: number, item: T): void {
    if (this.#k <= 0) return;
    const h = this.#heap;
    const root = h[0];
    // Most candidates lose against the worst kept one: reject them before allocating anything.
    if (root && h.length >= this.#k && (score < root.score || (score === root.score && order > root.order))) return;
    const entry = { score, order, item };
    if (h.length < this.#k) {
      h.push(entry);
      let i = h.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        const p = h[parent];
        if (!p || !TopK.#worse(entry, p)) break;
        h[i] = p;
        i = parent;
      }
      h[i] = entry;
      return;
    }
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      let worstEntry = entry;
      const le = h[l];
      const re = h[r];
      if (le && TopK.#worse(le, worstEntry)) {
        worst = l;
        worstEntry = le;
      }
      if (re && TopK.#worse(re, worstEntry)) {
        worst = r;
        worstEntry = re;
      }
      if (worst === i) break;
      h[i] = worstEntry;
      i = worst;
    }
    h[i] = entry;
  }

  /** The kept items, best first. */
  sorted(): { score: number; item: T }[] {
    return [...this.#heap].sort((a, b) => (TopK.#worse(a, b) ? 1 : TopK.#worse(b, a) ? -1 : 0)).map(({ score, item }) => ({ score, item }));
  }
}
