// The impersonal gate as recall applies it: off by default, on with `impersonalGate`.
import { describe, expect, it } from "vitest";
import { recallFrom } from "../../../../src/memory/facts/recall.ts";
import { hybridGate, IMPERSONAL_SCRIPT_GATES, relevanceOf } from "../../../../src/memory/facts/relevance.ts";
import { DEFAULT_MEMORY_OPTIONS } from "../../../../src/memory/options.ts";
import type { FactMatches, FactQuery, FactScope } from "../../../../src/memory/ports/facts.ts";
import { InMemoryFactStore } from "../../../support/fakes/facts.ts";

const scope = { tenant: "acme", userId: "u1" };
const NOW = Date.UTC(2026, 2, 10);

/** The dense score whose hybrid relevance (no sparse match) lies halfway between the two gates. */
function denseBetweenGates(): number {
  const target = (hybridGate(0) + IMPERSONAL_SCRIPT_GATES.latin) / 2;
  let low = 0.5;
  let high = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    const relevance = relevanceOf({ fact: {} as never, similarity: mid, dense: mid, sparse: 0 }, "hybrid", 0);
    if (relevance < target) low = mid;
    else high = mid;
  }
  return low;
}

/** A hybrid index that scores every fact the same: between the user's gate and the impersonal one. */
class HybridStore extends InMemoryFactStore {
  override async query(s: FactScope, query: FactQuery): Promise<FactMatches> {
    const found = await super.query(s, query);
    const dense = denseBetweenGates();
    return { scale: "hybrid", candidates: found.candidates.map((c) => ({ ...c, similarity: dense, dense, sparse: 0 })) };
  }
}

async function recalled(query: string, impersonalGate: boolean): Promise<string[]> {
  const store = new HybridStore();
  await store.upsert(scope, [
    {
      id: "f1",
      text: "My neighbour has a loud parrot",
      type: "fact",
      importance: 0.5,
      createdAt: NOW,
      updatedAt: NOW,
      lastAccessedAt: NOW,
      accessCount: 0,
      version: 1,
    },
  ]);
  const outcome = await recallFrom(store, scope, query, { k: 5, now: NOW, options: { ...DEFAULT_MEMORY_OPTIONS, impersonalGate } });
  return outcome.facts.map((r) => r.fact.text);
}

describe("the impersonal gate", () => {
  it("is off by default: a task that is not about the user still recalls at the user's gate", async () => {
    expect(DEFAULT_MEMORY_OPTIONS.impersonalGate).toBe(false);
    expect(await recalled("Translate good morning into Spanish", false)).toEqual(["My neighbour has a loud parrot"]);
  });

  it("when on, holds a query that is not about the user to the higher gate, and not one about the user", async () => {
    expect(await recalled("Translate good morning into Spanish", true)).toEqual([]);
    expect(await recalled("What does my neighbour keep?", true)).toEqual(["My neighbour has a loud parrot"]);
  });
});
