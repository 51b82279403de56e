/** @module SealedUserStore: a user store decorator that opens queued facts and hands their sealed form back on confirm. */
import type { FactScope, RecallCount, UserStore } from "../../memory/ports/index.ts";
import type { Fact } from "../../memory/model.ts";
import type { FieldCipher } from "./cipher.ts";
import * as seal from "./fields.ts";

/**
 * A {@link UserStore} that opens queued facts (sealed by {@link SealedSessionStore} when an append
 * queued them). The inner store unqueues an entry only if it is still the one that was read, so
 * each opened fact remembers its sealed form and `confirmFacts` hands that back.
 */
export class SealedUserStore implements UserStore {
  readonly #inner: UserStore;
  readonly #cipher: FieldCipher;
  readonly #sealedForm = new WeakMap<Fact, Fact>();

  constructor(inner: UserStore, cipher: FieldCipher) {
    this.#inner = inner;
    this.#cipher = cipher;
  }

  erasedAt(scope: FactScope): Promise<number | null> {
    return this.#inner.erasedAt(scope);
  }

  markErased(scope: FactScope, at: number): Promise<void> {
    return this.#inner.markErased(scope, at);
  }

  async pendingFacts(scope: FactScope, limit: number): Promise<Fact[]> {
    const open = seal.codecsFor(this.#cipher, scope.tenant).open;
    const stored = await this.#inner.pendingFacts(scope, limit);
    return Promise.all(
      stored.map(async (sealed) => {
        const clear = await seal.fact(sealed, open);
        this.#sealedForm.set(clear, sealed);
        return clear;
      }),
    );
  }

  async confirmFacts(scope: FactScope, facts: readonly Fact[]): Promise<{ erasedAt: number | null }> {
    // A fact not read through pendingFacts has no stored form to match: it is left queued.
    return this.#inner.confirmFacts(
      scope,
      facts.flatMap((f) => this.#sealedForm.get(f) ?? []),
    );
  }

  usersWithPendingFacts(tenant: string, limit: number): Promise<string[]> {
    return this.#inner.usersWithPendingFacts(tenant, limit);
  }

  recordRecalls(scope: FactScope, ids: readonly string[], at: number): Promise<void> {
    return this.#inner.recordRecalls(scope, ids, at);
  }

  recallCounts(scope: FactScope, limit: number): Promise<RecallCount[]> {
    return this.#inner.recallCounts(scope, limit);
  }

  settleRecalls(scope: FactScope, merged: readonly RecallCount[]): Promise<void> {
    return this.#inner.settleRecalls(scope, merged);
  }

  usersWithRecalls(tenant: string, limit: number): Promise<string[]> {
    return this.#inner.usersWithRecalls(tenant, limit);
  }
}
