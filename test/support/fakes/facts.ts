/**
 * In-memory fakes of the fact ports (src/memory/ports/facts.ts): per-user records and the fact
 * index. Every call is counted so tests can check round trips.
 */
import { matchesFilter } from "../../../src/memory/facts/filter.ts";
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
  RecallCount,
  UserStore,
} from "../../../src/memory/ports/facts.ts";
import type { Fact } from "../../../src/memory/model.ts";
import { clone, type Failures, userKey } from "./shared.ts";

export class InMemoryUserStore implements UserStore {
  readonly calls: Record<string, number> = {};
  readonly #erased = new Map<string, number>();
  readonly #pending = new Map<string, Map<string, string>>();
  readonly #recalls = new Map<string, Map<string, { count: number; at: number }>>();

  #enter(method: keyof UserStore | "queue"): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
  }

  #of<V>(maps: Map<string, Map<string, V>>, scope: FactScope): Map<string, V> {
    const key = userKey(scope.tenant, scope.userId);
    let map = maps.get(key);
    if (!map) maps.set(key, (map = new Map()));
    return map;
  }

  /** What the append step does for the session store (not a port method). */
  queue(scope: FactScope, facts: readonly Fact[]): void {
    this.#enter("queue");
    for (const f of facts) this.#of(this.#pending, scope).set(f.id, JSON.stringify(f));
  }

  async erasedAt(scope: FactScope): Promise<number | null> {
    this.#enter("erasedAt");
    return this.tombstone(scope);
  }

  /** The tombstone without counting a call (the session store's append reads it in its own step). */
  tombstone(scope: FactScope): number | null {
    return this.#erased.get(userKey(scope.tenant, scope.userId)) ?? null;
  }

  async markErased(scope: FactScope, at: number): Promise<void> {
    this.#enter("markErased");
    this.#erased.set(userKey(scope.tenant, scope.userId), at);
    this.#of(this.#pending, scope).clear();
    this.#of(this.#recalls, scope).clear();
  }

  async pendingFacts(scope: FactScope, limit: number): Promise<Fact[]> {
    this.#enter("pendingFacts");
    return [...this.#of(this.#pending, scope).values()].slice(0, limit).map((raw) => JSON.parse(raw) as Fact);
  }

  async confirmFacts(scope: FactScope, facts: readonly Fact[]): Promise<{ erasedAt: number | null }> {
    this.#enter("confirmFacts");
    const pending = this.#of(this.#pending, scope);
    for (const f of facts) if (pending.get(f.id) === JSON.stringify(f)) pending.delete(f.id);
    return { erasedAt: this.#erased.get(userKey(scope.tenant, scope.userId)) ?? null };
  }

  async usersWithPendingFacts(tenant: string, limit: number): Promise<string[]> {
    this.#enter("usersWithPendingFacts");
    return this.#usersWith(this.#pending, tenant, limit);
  }

  async recordRecalls(scope: FactScope, ids: readonly string[], at: number): Promise<void> {
    this.#enter("recordRecalls");
    const recalls = this.#of(this.#recalls, scope);
    for (const id of ids) {
      const current = recalls.get(id) ?? { count: 0, at: 0 };
      recalls.set(id, { count: current.count + 1, at: Math.max(current.at, at) });
    }
  }

  async recallCounts(scope: FactScope, limit: number): Promise<RecallCount[]> {
    this.#enter("recallCounts");
    return [...this.#of(this.#recalls, scope).entries()].slice(0, limit).map(([id, r]) => ({ id, count: r.count, lastAccessedAt: r.at }));
  }

  async settleRecalls(scope: FactScope, merged: readonly RecallCount[]): Promise<void> {
    this.#enter("settleRecalls");
    const recalls = this.#of(this.#recalls, scope);
    for (const c of merged) {
      const current = recalls.get(c.id);
      if (!current) continue;
      if (current.count - c.count <= 0) recalls.delete(c.id);
      else recalls.set(c.id, { ...current, count: current.count - c.count });
    }
  }

  async usersWithRecalls(tenant: string, limit: number): Promise<string[]> {
    this.#enter("usersWithRecalls");
    return this.#usersWith(this.#recalls, tenant, limit);
  }

  #usersWith(maps: Map<string, Map<string, unknown>>, tenant: string, limit: number): string[] {
    return [...maps.entries()]
      .filter(([key, map]) => key.startsWith(`${tenant}\u0000`) && map.size > 0)
      .map(([key]) => key.slice(tenant.length + 1))
      .slice(0, limit);
  }
}

type FactMethod = keyof FactStore;

/** Character-bigram cosine: crude, deterministic, works for Chinese and English. */
export function bigramCosine(a: string, b: string): number {
  const grams = (text: string) => {
    const clean = text.toLowerCase().replace(/[\s\p{P}]+/gu, " ");
    const counts = new Map<string, number>();
    for (let i = 0; i < clean.length - 1; i++) {
      const g = clean.slice(i, i + 2);
      if (g.trim().length < 2) continue;
      counts.set(g, (counts.get(g) ?? 0) + 1);
    }
    return counts;
  };
  const x = grams(a);
  const y = grams(b);
  let dot = 0;
  for (const [g, n] of x) dot += n * (y.get(g) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, n) => s + n * n, 0));
  const denominator = norm(x) * norm(y);
  return denominator === 0 ? 0 : dot / denominator;
}

/** Scores like Upstash Vector does for COSINE indexes: (1 + cos) / 2, so unrelated texts get 0.5. */
export function upstashStyleScore(query: string, text: string): number {
  return (1 + bigramCosine(query, text)) / 2;
}

export class InMemoryFactStore implements FactStore {
  readonly calls: Record<string, number> = {};
  readonly #facts = new Map<string, Map<string, Fact>>();
  readonly #failures: Failures<FactMethod> = {};

  constructor(readonly similarity: (query: string, text: string) => number = upstashStyleScore) {}

  failNext(method: FactMethod, error: unknown = new Error(`${method} failed`)): void {
    this.#failures[method] = error;
  }

  #enter(method: FactMethod): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    if (method in this.#failures) {
      const error = this.#failures[method];
      delete this.#failures[method];
      throw error;
    }
  }

  #scope(scope: FactScope): Map<string, Fact> {
    const key = `${scope.tenant}\u0000${scope.userId}`;
    let facts = this.#facts.get(key);
    if (!facts) this.#facts.set(key, (facts = new Map()));
    return facts;
  }

  /** Everything stored for a scope (test helper). */
  all(scope: FactScope): Fact[] {
    return clone([...this.#scope(scope).values()]);
  }

  async upsert(scope: FactScope, facts: Fact[]): Promise<void> {
    this.#enter("upsert");
    for (const f of facts) this.#scope(scope).set(f.id, clone(f));
  }

  /** Scores like a dense index's normalized cosine, so the candidates are on the dense scale. */
  async query(scope: FactScope, query: FactQuery): Promise<FactMatches> {
    this.#enter("query");
    const candidates = [...this.#scope(scope).values()]
      .filter((f) => !query.types || query.types.length === 0 || query.types.includes(f.type))
      // Like the Vector store's filter: a superseded fact is never a candidate.
      .filter((f) => f.supersededAt === undefined)
      .filter((f) => matchesFilter(f, query.filter))
      // Like the Vector store: a fact's best score over every wording of the query.
      .map((f) => ({
        fact: clone(f),
        similarity: Math.max(...[query.text, ...(query.also ?? [])].map((t) => this.similarity(t, f.text))),
      }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, query.topK);
    return { scale: "dense", candidates };
  }

  async get(scope: FactScope, ids: string[]): Promise<(Fact | null)[]> {
    this.#enter("get");
    return ids.map((id) => clone(this.#scope(scope).get(id) ?? null));
  }

  async findByContent(scope: FactScope, contents: ContentRef[]): Promise<ContentMatch[]> {
    this.#enter("findByContent");
    const facts = this.#scope(scope);
    return contents.map(({ contentId }) => {
      const holder = [...facts.values()].find((f) => (f.contentId ?? f.id) === contentId) ?? null;
      return { holder: clone(holder), idTaken: facts.has(contentId) };
    });
  }

  async patch(scope: FactScope, facts: Fact[]): Promise<void> {
    this.#enter("patch");
    for (const f of facts) if (this.#scope(scope).has(f.id)) this.#scope(scope).set(f.id, clone(f));
  }

  async refresh(scope: FactScope, refreshes: FactRefresh[]): Promise<string[]> {
    this.#enter("refresh");
    const missing: string[] = [];
    for (const r of refreshes) {
      const f = this.#scope(scope).get(r.id);
      if (f) {
        const { supersededAt: _at, supersededBy: _by, ...current } = f;
        this.#scope(scope).set(r.id, { ...current, version: r.version, updatedAt: r.updatedAt });
      } else missing.push(r.id);
    }
    return missing;
  }

  async touch(scope: FactScope, accesses: FactAccess[]): Promise<void> {
    this.#enter("touch");
    for (const a of accesses) {
      const f = this.#scope(scope).get(a.id);
      if (f) this.#scope(scope).set(a.id, { ...f, accessCount: a.accessCount, lastAccessedAt: a.lastAccessedAt });
    }
  }

  async delete(scope: FactScope, ids: string[]): Promise<number> {
    this.#enter("delete");
    return ids.filter((id) => this.#scope(scope).delete(id)).length;
  }

  async supersededBy(scope: FactScope, fact: Fact): Promise<Fact[]> {
    this.#enter("supersededBy");
    return clone([...this.#scope(scope).values()].filter((f) => f.supersededBy === fact.id));
  }

  async list(scope: FactScope, cursor: string, limit: number): Promise<FactPage> {
    this.#enter("list");
    const all = [...this.#scope(scope).values()].sort((a, b) => a.id.localeCompare(b.id));
    const start = cursor === "" ? 0 : Number(cursor);
    const facts = clone(all.slice(start, start + limit));
    return { facts, nextCursor: start + limit < all.length ? String(start + limit) : "" };
  }

  async deleteAll(scope: FactScope): Promise<number> {
    this.#enter("deleteAll");
    const n = this.#scope(scope).size;
    this.#scope(scope).clear();
    return n;
  }

  async scopes(): Promise<FactScope[]> {
    this.#enter("scopes");
    return [...this.#facts.entries()]
      .filter(([, facts]) => facts.size > 0)
      .map(([key]) => {
        const [tenant = "", userId = ""] = key.split("\u0000");
        return { tenant, userId };
      });
  }
}
